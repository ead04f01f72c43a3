/*
 * What include/catfacts.h promises in its text, for every function, so that one added without
 * it fails here:
 * - a "Threads:" line (which calls may run at once, from which threads, whether a listener
 *   may make it);
 * - a "Returns:" line when it returns anything; for a cf_status, naming CF_OK or CF_PENDING
 *   and the errors it can return (status_test.c drives each of them for the one-shot calls),
 *   and only real status names;
 * - when it hands something out through an out-pointer (a T ** parameter), what that holds on
 *   failure: "NULL on failure".
 * The checker runs first on made-up headers that break each rule, so a rule that stopped
 * catching anything would fail too.
 */
#include "harness.h"
#include "header_text.h"

/* Counts the broken rules of text (a header), printing each when report is set. */
static int header_problems(const char *text, int report, int *functions) {
    int problems = 0;
    const char *cursor = text, *latest_comment = NULL;
    header_function f;
    *functions = 0;
    while (header_next_function(&cursor, &latest_comment, &f)) {
        (*functions)++;
        const char *threads = header_comment_find(&f, "Threads:");
        if (threads == NULL) {
            problems++;
            if (report) fprintf(stderr, "%s has no \"Threads:\" line in the comment above it\n", f.name);
        }
        int is_void = strncmp(f.declaration, "void ", 5) == 0;
        int is_status = strncmp(f.declaration, "cf_status ", 10) == 0;
        unsigned statuses = 0;
        char unknown[64] = "";
        int documented = header_documented_statuses(&f, &statuses, unknown);
        if (!is_void && documented == 0) {
            problems++;
            if (report) fprintf(stderr, "%s returns a value but its comment has no \"Returns:\" line\n", f.name);
        }
        if (documented < 0) {
            problems++;
            if (report) fprintf(stderr, "%s's \"Returns:\" names %s, which is no cf_status\n", f.name, unknown);
        }
        if (is_status && documented > 0) {
            int success = (statuses & (1u << CF_OK)) || (statuses & (1u << CF_PENDING));
            int errors = (statuses >> CF_ERR_ARGUMENT) != 0;
            if (!success || !errors) {
                problems++;
                if (report) fprintf(stderr, "%s's \"Returns:\" lists no %s\n", f.name, success ? "error status" : "CF_OK");
            }
        }
        /* A T ** parameter: something handed out; the comment says what it holds on failure. */
        const char *hand_out = strstr(f.declaration, "**");
        if (is_status && hand_out != NULL && hand_out < f.declaration_end && header_comment_find(&f, "NULL on failure") == NULL) {
            problems++;
            if (report) fprintf(stderr, "%s hands out through an out-pointer but does not say \"NULL on failure\"\n", f.name);
        }
    }
    return problems;
}

static void every_function_keeps_the_headers_promises(void) {
    char *text = header_read();
    if (text == NULL) return;
    int functions = 0;
    CHECK_INT_EQ(header_problems(text, 1, &functions), 0);
    CHECKF(functions >= 37, "found %d function declarations in %s; the parse missed some", functions, HEADER_PATH);
    /* The parse finds declarations whose comment is right above them, in the middle of the file too. */
    const char *cursor = text, *latest_comment = NULL;
    header_function f;
    int metrics_endpoints = 0;
    while (header_next_function(&cursor, &latest_comment, &f)) metrics_endpoints += strcmp(f.name, "cf_metrics_endpoints") == 0 && f.comment != NULL;
    CHECK_INT_EQ(metrics_endpoints, 1);
    free(text);
}

/* Each rule, broken once in a made-up header, is caught (and only that one). */
static void the_checker_catches_each_broken_rule(void) {
    static const struct { const char *header; const char *broken; } cases[] = {
        {"/*\n * Does it.\n * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c.\n * Threads: any.\n */\n"
         "cf_status cf_fine(cf_client *c);\n", NULL},
        {"/*\n * Does it.\n * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c.\n */\ncf_status cf_a(cf_client *c);\n", "no Threads"},
        {"/*\n * Does it.\n * Threads: any.\n */\ncf_status cf_b(cf_client *c);\n", "no Returns"},
        {"/*\n * Counts.\n * Threads: any.\n */\nint64_t cf_c(cf_list *l);\n", "no Returns on a count"},
        {"/*\n * Does it.\n * Returns: CF_OK.\n * Threads: any.\n */\ncf_status cf_d(cf_client *c);\n", "no error status"},
        {"/*\n * Does it.\n * Returns: CF_OK; CF_ERR_NOPE.\n * Threads: any.\n */\ncf_status cf_e(cf_client *c);\n", "a misspelt status"},
        {"/*\n * out: the answer.\n * Returns: CF_OK; CF_ERR_ARGUMENT for NULL out.\n * Threads: any.\n */\n"
         "cf_status cf_f(cf_client *c, char **out);\n", "no NULL on failure"},
        {"/* Not the comment of cf_g. */\n\ncf_status cf_g(cf_client *c);\n", "a comment that is not right above"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int functions = 0;
        int problems = header_problems(cases[i].header, 0, &functions);
        CHECK_INT_EQ(functions, 1);
        if (cases[i].broken == NULL)
            CHECKF(problems == 0, "a header that keeps every rule has %d problems", problems);
        else
            CHECKF(problems >= 1, "a header with %s passes", cases[i].broken);
    }
}

int main(void) {
    RUN(the_checker_catches_each_broken_rule);
    RUN(every_function_keeps_the_headers_promises);
    return harness_report("header_test");
}
