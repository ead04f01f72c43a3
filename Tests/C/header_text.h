/*
 * header_text.h - include/catfacts.h read as text, for the tests that hold the header to what
 * its comments promise (header_test.c: every declaration's lines; status_test.c: the statuses
 * each call documents). Header-only (static inline: a test uses what it needs); include it
 * after harness.h. The tests run from the checkout's top folder (run.sh), where the header is.
 */
#ifndef CF_TEST_HEADER_TEXT_H
#define CF_TEST_HEADER_TEXT_H

#include <ctype.h>

#define HEADER_PATH "include/catfacts.h"

/* The whole header, NUL-terminated (yours to free); NULL after a counted failure. */
static inline char *header_read(void) {
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

/* A function the header declares, with the comment right above it (NULL when there is none). */
typedef struct header_function {
    char name[64];
    const char *declaration, *declaration_end; /* from the line's start to its ';' */
    const char *comment, *comment_end;         /* from its slash-star to its star-slash */
} header_function;

/* A line that declares a function: it starts a declaration (not a typedef, a field, a macro
   or a comment) and names cf_something followed by "(". Writes the name into name. */
static inline int header_line_declares(const char *line, const char *end, char name[64]) {
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

/*
 * The next function declared in text from *cursor on, into f; *cursor moves past it.
 * Returns 0 when there is none left. *latest_comment carries the last comment seen between
 * calls (start it at NULL).
 */
static inline int header_next_function(const char **cursor, const char **latest_comment, header_function *f) {
    for (const char *line = *cursor; *line != '\0';) {
        const char *end = strchr(line, '\n');
        if (end == NULL) end = line + strlen(line);
        const char *open = strstr(line, "/*");
        if (open != NULL && open < end) *latest_comment = open;
        const char *next = *end == '\n' ? end + 1 : end;
        if (header_line_declares(line, end, f->name)) {
            const char *semicolon = strchr(line, ';');
            f->declaration = line;
            f->declaration_end = semicolon != NULL ? semicolon : end;
            f->comment = f->comment_end = NULL;
            /* Its comment is the one that ends on the line right above. */
            const char *close = *latest_comment != NULL ? strstr(*latest_comment, "*/") : NULL;
            const char *after = close != NULL ? strchr(close, '\n') : NULL;
            if (after != NULL && after + 1 == line) {
                f->comment = *latest_comment;
                f->comment_end = close;
            }
            *cursor = f->declaration_end;
            return 1;
        }
        line = next;
    }
    *cursor = *cursor + strlen(*cursor);
    return 0;
}

/* Where `needle` starts in f's comment, or NULL. */
static inline const char *header_comment_find(const header_function *f, const char *needle) {
    if (f->comment == NULL) return NULL;
    const char *found = strstr(f->comment, needle);
    return found != NULL && found < f->comment_end ? found : NULL;
}

/* The names of cf_status, as the tests know them; their index is their value. */
#define HEADER_STATUS_COUNT 12
static const char *const header_status_names[HEADER_STATUS_COUNT] = {
    "CF_OK", "CF_PENDING", "CF_ERR_ARGUMENT", "CF_ERR_NETWORK", "CF_ERR_TIMEOUT", "CF_ERR_HTTP",
    "CF_ERR_RATE_LIMITED", "CF_ERR_DECODE", "CF_ERR_NOT_FOUND", "CF_ERR_OFFLINE", "CF_ERR_CANCELLED",
    "CF_ERR_INTERNAL"};

/*
 * The statuses f's "Returns:" paragraph names (to its "Threads:" line or the comment's end),
 * as a bit per status value, into *statuses. Returns 0 when the comment has no "Returns:";
 * -1 when the paragraph names a CF_ word that is no status (written to unknown, 64 bytes).
 */
static inline int header_documented_statuses(const header_function *f, unsigned *statuses, char unknown[64]) {
    *statuses = 0;
    const char *returns = header_comment_find(f, "Returns:");
    if (returns == NULL) return 0;
    const char *threads = header_comment_find(f, "Threads:");
    const char *end = threads != NULL && threads > returns ? threads : f->comment_end;
    for (const char *p = returns; p < end; p++) {
        if (strncmp(p, "CF_", 3) != 0 || isalnum((unsigned char)p[-1]) || p[-1] == '_') continue;
        const char *q = p;
        while (q < end && (isupper((unsigned char)*q) || *q == '_')) q++;
        size_t length = (size_t)(q - p);
        int found = -1;
        for (int s = 0; s < HEADER_STATUS_COUNT; s++) {
            if (strlen(header_status_names[s]) == length && strncmp(p, header_status_names[s], length) == 0) found = s;
        }
        if (found < 0 && strncmp(p, "CF_COUNT_", 9) != 0) {
            snprintf(unknown, 64, "%.*s", (int)(length < 63 ? length : 63), p);
            return -1;
        }
        if (found >= 0) *statuses |= 1u << found;
        p = q;
    }
    return 1;
}

#endif /* CF_TEST_HEADER_TEXT_H */
