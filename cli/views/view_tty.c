// SPDX-License-Identifier: GPL-2.0
/* view_tty.c - full-screen live view with plain ANSI sequences. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "fmt.h"
#include "view_tty.h"

#define ESC "\033"
#define SUMMARY_LINES 4

static const char *const help_text[] = {
	"ucounttop - per-user-namespace rlimit counters (struct ucounts)",
	"",
	"  q            quit",
	"  s            next sort key (uid, nproc, msgqueue, sigpending, memlock,",
	"               denials, change)",
	"  t            cycle the type filter (all, nproc, msgqueue, ...)",
	"  p, space     pause / resume refreshing",
	"  e, Enter     expand / collapse the selected namespace",
	"  Up/Down j/k  move the selection;  PgUp/PgDn  page",
	"  /            search container ids, hostnames, commands; Esc cancels",
	"  h, ?         this help",
	"",
	"ns line:  CREATOR-VALUE/NS-MAX, the creator's row against this namespace's",
	"          rlimit_max; then its oldest process's container id, own hostname",
	"          and comm(pid), or 'no task' and what holds it (ns, mq, shm, sig)",
	"uid line: VALUE[+CHANGE]/LIMIT ('-': only the caller's own rlimit applies)",
	"uids as each namespace maps them (-(kN): it maps none to kuid N), owners",
	"as the parent maps them; (NAME): the namespace's /etc/passwd; --kuid: kuids",
	"DENY: refused charges since start.  FLAG: D denials, O over limit,",
	"I imbalanced (value < sum of child namespaces' rows), N new",
	"Units: NPROC processes, MSGQUEUE and MEMLOCK bytes (B; the kernel counts",
	"MEMLOCK in pages), SIGPENDING signals; K/M/G/T are powers of 1024",
	"Press any key to go back.",
};

int uct_tty_open(struct uct_tty *t)
{
	struct termios raw;

	memset(t, 0, sizeof(*t));
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &t->saved) == 0) {
		raw = t->saved;
		/* keys without Enter, no echo; keep ISIG so Ctrl-C is SIGINT
		 * and OPOST so "\n" still returns the carriage */
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0)
			t->raw = true;
	}
	/* alternate screen, hidden cursor */
	fputs(ESC "[?1049h" ESC "[?25l" ESC "[H" ESC "[2J", stdout);
	fflush(stdout);
	return 0;
}

void uct_tty_close(struct uct_tty *t)
{
	fputs(ESC "[?25h" ESC "[?1049l", stdout);
	fflush(stdout);
	if (t->raw)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &t->saved);
	t->raw = false;
}

void uct_tty_geometry(struct uct_view_ctx *c)
{
	struct winsize ws;

	c->width = 80;
	c->height = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
		if (ws.ws_col)
			c->width = ws.ws_col;
		if (ws.ws_row)
			c->height = ws.ws_row;
	}
	if (c->height < SUMMARY_LINES + 4)
		c->height = SUMMARY_LINES + 4;
}

/* Write s cut to the screen width, then clear to end of line. */
static void put_line(FILE *f, const char *s, int width, bool reverse)
{
	if (reverse)
		fputs(ESC "[7m", f);
	fprintf(f, "%.*s", width, s);
	if (reverse)
		fputs(ESC "[0m", f);
	fputs(ESC "[K\n", f);
}

static int table_rows(const struct uct_view_ctx *c)
{
	return c->height - SUMMARY_LINES - 3;	/* column header, legend, key line */
}

static void clamp_cursor(struct uct_model *m, struct uct_view_ctx *c)
{
	int rows = table_rows(c);

	if (c->cursor >= (int)m->nlines)
		c->cursor = (int)m->nlines - 1;
	if (c->cursor < 0)
		c->cursor = m->nlines ? 0 : -1;
	if (c->cursor >= 0 && c->cursor < c->scroll)
		c->scroll = c->cursor;
	if (c->cursor >= c->scroll + rows)
		c->scroll = c->cursor - rows + 1;
	if (c->scroll > (int)m->nlines - rows)
		c->scroll = (int)m->nlines - rows;
	if (c->scroll < 0)
		c->scroll = 0;
}

void uct_tty_render(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c)
{
	char *buf = NULL, *sum = NULL, line[512];
	size_t blen = 0, slen = 0;
	FILE *f, *s;
	int i, w, rows;

	f = open_memstream(&buf, &blen);
	if (!f)
		return;
	fputs(ESC "[H", f);
	if (t->help) {
		for (i = 0; i < (int)ARRAY_SIZE(help_text) && i < c->height - 1; i++)
			put_line(f, help_text[i], c->width, i == 0);
		fputs(ESC "[J", f);
		goto out;
	}
	/* summary: the table code writes full lines; cut each to the width */
	s = open_memstream(&sum, &slen);
	if (s) {
		char *p, *save = NULL;

		uct_table_summary(s, m, c);
		fclose(s);
		for (p = strtok_r(sum, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
			put_line(f, p, c->width, false);
		free(sum);
	}
	clamp_cursor(m, c);
	rows = table_rows(c);
	/* cgroup paths of the namespaces on screen only: a lookup reads a
	 * file, once per cgroup */
	uct_model_resolve_names(m, c->scroll, rows);
	w = uct_table_name_width(m, c);
	uct_table_header(line, sizeof(line), m, c, w);
	put_line(f, line, c->width, true);
	uct_table_legend(line, sizeof(line), m, c);
	put_line(f, line, c->width, false);
	for (i = c->scroll; i < (int)m->nlines && i < c->scroll + rows; i++) {
		uct_table_line(line, sizeof(line), m, c, &m->lines[i], w);
		put_line(f, line, c->width, i == c->cursor);
	}
	for (; i < c->scroll + rows; i++)
		put_line(f, "", c->width, false);
	if (t->searching) {
		char q[sizeof(m->search)];
		struct uct_sb b = UCT_SB_INIT(q);

		uct_sb_text(&b, m->search, sizeof(m->search));
		snprintf(line, sizeof(line), "/%s_   Enter keep  Esc cancel   "
			 "(container id, hostname, command)", q);
	} else {
		/* 80 columns show it whole up to 999 lines */
		snprintf(line, sizeof(line), "q quit  s sort  t type  p pause  e +/-  / search  "
			 "h help   lines %d-%d of %zu", m->nlines ? c->scroll + 1 : 0,
			 c->scroll + rows < (int)m->nlines ? c->scroll + rows : (int)m->nlines,
			 m->nlines);
	}
	fprintf(f, "%.*s" ESC "[K" ESC "[J", c->width, line);
out:
	fclose(f);
	fwrite(buf, 1, blen, stdout);
	fflush(stdout);
	free(buf);
}

/* The search changed: names of every namespace (container ids come from
 * cgroup paths), the layout, and the selection on the first match */
static void search_changed(struct uct_model *m, struct uct_view_ctx *c)
{
	size_t i;

	uct_model_resolve_names(m, -1, 0);
	uct_model_relayout(m);
	for (i = 0; i < m->nlines; i++) {
		if (m->lines[i].is_ns && m->ns[m->lines[i].index].name_match) {
			c->cursor = (int)i;
			return;
		}
	}
}

/*
 * Keys while searching: printable ones extend the text, Backspace takes
 * one back, Enter keeps the search, Esc (alone, not an arrow key's
 * sequence) restores the one before '/'. The view follows every key.
 */
static void search_keys(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c,
			const char *k, int n)
{
	size_t len = strlen(m->search);
	int i;

	for (i = 0; i < n && t->searching; i++) {
		unsigned char ch = (unsigned char)k[i];

		if (ch == '\033') {
			if (i + 1 < n && k[i + 1] == '[') {
				/* an arrow or page key: not text */
				i = n;
				break;
			}
			memcpy(m->search, t->saved_search, sizeof(m->search));
			t->searching = false;
		} else if (ch == '\n' || ch == '\r') {
			t->searching = false;
		} else if (ch == 0x7f || ch == '\b') {
			if (len)
				m->search[--len] = 0;
		} else if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(m->search)) {
			m->search[len++] = (char)ch;
			m->search[len] = 0;
		}
	}
	search_changed(m, c);
}

/* Handle one key (or escape sequence). Returns 1 quit, 2 refresh now, 0. */
static int key(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c,
	       const char *k, int n)
{
	int page = table_rows(c);

	if (t->help) {
		t->help = false;
		return 0;
	}
	if (t->searching) {
		search_keys(t, m, c, k, n);
		return 0;
	}
	if (n >= 3 && k[0] == '\033' && k[1] == '[') {
		switch (k[2]) {
		case 'A': c->cursor--; break;
		case 'B': c->cursor++; break;
		case '5': c->cursor -= page; break;
		case '6': c->cursor += page; break;
		}
		return 0;
	}
	switch (k[0]) {
	case 'q': case 'Q':
		return 1;
	case 's':
		m->sort = (m->sort + 1) % UCT_SORT_COUNT;
		uct_model_relayout(m);
		break;
	case 't':
		m->type_filter = m->type_filter + 1 >= UCT_NTYPES ? -1 : m->type_filter + 1;
		uct_model_relayout(m);
		break;
	case 'p': case ' ':
		c->paused = !c->paused;
		return c->paused ? 0 : 2;
	case 'e': case '\n': case '\r':
		if (c->cursor >= 0 && c->cursor < (int)m->nlines) {
			const struct uct_line *ln = &m->lines[c->cursor];
			int ns = ln->is_ns ? ln->index : m->rows[ln->index].ns;
			__u32 inum = m->ns[ns].inum;
			size_t i;

			uct_model_toggle_collapse(m, inum);
			/* keep the selection on that namespace's line */
			for (i = 0; i < m->nlines; i++)
				if (m->lines[i].is_ns && m->ns[m->lines[i].index].inum == inum)
					c->cursor = (int)i;
		}
		break;
	case 'j': c->cursor++; break;
	case 'k': c->cursor--; break;
	case 'h': case '?':
		t->help = true;
		break;
	case '/':
		/* a new search; Esc brings the current one back */
		memcpy(t->saved_search, m->search, sizeof(t->saved_search));
		m->search[0] = 0;
		t->searching = true;
		search_changed(m, c);
		break;
	}
	return 0;
}

int uct_tty_wait(struct uct_tty *t, struct uct_model *m, struct uct_view_ctx *c, double secs,
		 volatile sig_atomic_t *stop, volatile sig_atomic_t *winch)
{
	double end = uct_now_s() + secs;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	for (;;) {
		double left = end - uct_now_s();
		int timeout = c->paused ? -1 : (left > 0 ? (int)(left * 1000) + 1 : 0);
		char k[16];
		int r, n;

		if (*stop)
			return 1;
		if (*winch) {
			*winch = 0;
			uct_tty_geometry(c);
			uct_tty_render(t, m, c);
		}
		if (!c->paused && left <= 0)
			return 0;
		r = poll(&pfd, t->raw ? 1 : 0, timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (pfd.revents & (POLLHUP | POLLERR)) {
			/* no keyboard any more: keep refreshing on the timer */
			t->raw = false;
			continue;
		}
		n = read(STDIN_FILENO, k, sizeof(k));
		if (n <= 0)
			continue;
		switch (key(t, m, c, k, n)) {
		case 1:
			return 1;
		case 2:
			return 0;
		}
		uct_tty_render(t, m, c);
	}
}
