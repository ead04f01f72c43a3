/* GNU readline and its history, for the catfacts shell (Sources/catfacts/Terminal).
 *
 * readline.h uses FILE without including stdio.h, so stdio.h comes first. The library is
 * GPL-3: only the shell links it, never libCatFacts (see docs/architecture.md).
 *
 * readline's settings are global variables, which Swift 6 refuses to touch directly
 * (shared mutable state); the small functions below read and write the few the shell
 * needs. They are called on the main thread only, where readline runs. */
#ifndef CATFACTS_CREADLINE_SHIM_H
#define CATFACTS_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/* setup */

/* Names the program for ~/.inputrc conditionals, leaves SIGINT and SIGWINCH to the shell
 * (it handles them around readline's callback interface), and installs `complete` as the
 * Tab completion function. */
static inline void catfacts_rl_setup(const char *name, rl_completion_func_t *complete) {
    rl_readline_name = name;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_attempted_completion_function = complete;
}

/* completion */

/* Tells readline not to fall back to file names when the shell offers no completion. */
static inline void catfacts_rl_completion_over(void) { rl_attempted_completion_over = 1; }

/* The character added after a unique completion (a space, or 0 for none). */
static inline void catfacts_rl_set_append_character(int c) { rl_completion_append_character = c; }

/* The line being edited (borrowed: valid until readline next changes it) and the cursor. */
static inline const char *catfacts_rl_line(void) { return rl_line_buffer; }
static inline int catfacts_rl_point(void) { return rl_point; }

/* history */

/* The most recent history line (borrowed), or NULL when the history is empty. */
static inline const char *catfacts_history_last(void) {
    HIST_ENTRY *entry = history_get(history_base + history_length - 1);
    return entry ? entry->line : NULL;
}

/* live search (Ctrl-S) */

/* Ends the line being edited from a key's command, as Enter would, without a new line:
 * readline hands the line to the callback handler once the command returns. */
static inline void catfacts_rl_finish_line(void) { rl_done = 1; }

/* Makes `text` the line being edited, the cursor at its end, and redraws it. */
static inline void catfacts_rl_restore_line(const char *text) {
    rl_replace_line(text, 0);
    rl_point = rl_end;
    rl_redisplay();
}

/* interruption */

/* Abandons the line being edited after Ctrl-C, as a shell does: the caller removes and
 * reinstalls the callback handler to start a fresh prompt. */
static inline void catfacts_rl_abandon_line(void) {
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_replace_line("", 1);
    rl_point = 0;
    rl_end = 0;
}

#endif
