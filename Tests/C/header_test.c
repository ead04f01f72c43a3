/*
 * What include/catfacts.h promises in its text: every function's comment has a "Threads:"
 * line (which calls may run at once, from which threads, whether a listener may make it),
 * so a function added without one fails here. Reads the header the suite compiles against
 * (run.sh runs each test from the checkout's top folder).
 */
#include "harness.h"

#include <ctype.h>

#define HEADER_PATH "include/catfacts.h"

/* The whole file, NUL-terminated (yours to free); NULL after a counted failure. */
static char *read_header(void) {
    FILE *file = fopen(HEADER_PATH, "rb");
    CHECKF(file != NULL, "cannot open %s", HEADER_PATH);
    if (file == NULL) return NULL;
    long size = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
    char *text = size > 0 ? malloc((size_t)size + 1) : NULL;
    int read_whole = text != NULL && fseek(file, 0, SEEK_SET) == 0 && fread(text, 1, (size_t)size, file) == (size_t)size;
    fclose(file);
    CHECKF(read_whole, "cannot read %s", HEADER_PATH);
    if (!read_whole) {
        free(text);
        return NULL;
    }
    text[size] = '\0';
    return text;
}

/* A line that declares a function: it starts a declaration (not a typedef, a field, a macro
   or a comment) and names cf_something followed by "(". Writes the name into name. */
static int declares_function(const char *line, const char *end, char name[64]) {
    if (!islower((unsigned char)line[0]) || strncmp(line, "typedef", 7) == 0 || strncmp(line, "extern", 6) == 0) return 0;
    for (const char *p = line; p + 3 < end; p++) {
        if (strncmp(p, "cf_", 3) != 0 || (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) continue;
        const char *q = p;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_')) q++;
        if (q < end && *q == '(' && q - p < 64) {
            memcpy(name, p, (size_t)(q - p));
            name[q - p] = '\0';
            return 1;
        }
    }
    return 0;
}

static void every_function_has_a_threads_line(void) {
    char *text = read_header();
    if (text == NULL) return;
    const char *comment = NULL, *comment_end = NULL; /* the latest comment, and where it ends */
    int functions = 0, facts_page_items = 0;
    for (const char *line = text; *line != '\0';) {
        const char *end = strchr(line, '\n');
        if (end == NULL) end = line + strlen(line);
        const char *open = strstr(line, "/*");
        if (open != NULL && open < end) {
            comment = open;
            const char *close = strstr(open, "*/");
            comment_end = close != NULL ? close : end;
        }
        char name[64];
        if (declares_function(line, end, name)) {
            functions++;
            facts_page_items += strcmp(name, "cf_facts_page_items") == 0;
            /* Its comment is the one that ends on the line right above. */
            const char *after_comment = comment_end != NULL ? strchr(comment_end, '\n') : NULL;
            int adjacent = after_comment != NULL && after_comment + 1 == line;
            const char *threads = adjacent ? strstr(comment, "Threads:") : NULL;
            CHECKF(threads != NULL && threads < comment_end, "%s has no \"Threads:\" line in the comment above it", name);
        }
        line = *end == '\n' ? end + 1 : end;
    }
    CHECKF(functions >= 36, "found %d function declarations in %s; the parse missed some", functions, HEADER_PATH);
    CHECK_INT_EQ(facts_page_items, 1);
    free(text);
}

int main(void) {
    RUN(every_function_has_a_threads_line);
    return harness_report("header_test");
}
