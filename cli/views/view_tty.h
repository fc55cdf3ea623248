/* SPDX-License-Identifier: GPL-2.0 */
/*
 * view_tty.h - full-screen live view with plain ANSI/VT100 sequences (no
 * curses: static, and fine on a serial console). Size from TIOCGWINSZ,
 * 80x24 when the terminal reports 0 (serial lines often do).
 */
#ifndef UCT_VIEW_TTY_H
#define UCT_VIEW_TTY_H

#include <signal.h>
#include <stdbool.h>
#include <termios.h>
#include "views.h"

struct uct_tty {
	struct termios saved;
	bool raw;		/* stdin was put in non-canonical mode */
	bool help;		/* help screen shown */
	bool searching;		/* '/' typed: keys edit the search */
	char saved_search[64];	/* the search before '/', restored by Esc */
};

int uct_tty_open(struct uct_tty *t);
void uct_tty_close(struct uct_tty *t);
/* Terminal size into c->width/height (80x24 when unknown or 0). */
void uct_tty_geometry(struct uct_view_ctx *c);
void uct_tty_render(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c);
/*
 * Wait up to secs for keys, handling them (redrawing as needed). Returns
 * 1 to quit, 0 when it is time for a new snapshot. While paused it waits
 * for keys only.
 */
int uct_tty_wait(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c, double secs,
		 volatile sig_atomic_t *stop, volatile sig_atomic_t *winch);

#endif /* UCT_VIEW_TTY_H */
