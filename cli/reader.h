/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader.h - the live view's and --listen's privileged half (privs.h,
 * ucounttop(8) SECURITY), a spawner (spawner.h) forked once everything
 * is loaded and before the main process gives up root. It keeps root's
 * uid with CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH under its own seccomp
 * allowlist and:
 * - makes the helpers that read other users' processes and tenants'
 *   passwd files (privread.h);
 * - writes -o's file from a document the main process rendered into a
 *   memfd (FILE's directory may be root's alone);
 * - reads --web.config.file, its certificate and key again on SIGHUP
 *   (the key may be root's alone), handing them over packed;
 * - removes --pin's pins when the main process ends (bpffs is root's).
 * It takes no path from the main process: -o's and the configuration's
 * are fixed when it starts.
 */
#ifndef UCT_READER_H
#define UCT_READER_H

#include <stddef.h>
#include "loader.h"
#include "privread.h"
#include "spawner.h"
#include "web_config.h"

struct uct_reader_cfg {
	struct uct_privread_cfg *privread;	/* what helpers read with (the
						 * reader's copy: its own to change) */
	const char *output_file;	/* -o (NULL: none) */
	const char *web_config;		/* --web.config.file (NULL: none) */
	struct uct_loader *loader;	/* its pins are the reader's to remove */
};

struct uct_reader {
	struct uct_spawner sp;
	char *reply;
};

/* Fork the reader. 0, or -1 with msg. The main process's helpers come
 * from it after uct_helper_use_spawner(h, uct_spawner_spawn,
 * uct_spawner_kill, &r->sp). */
int uct_reader_start(struct uct_reader *r, const struct uct_reader_cfg *c, char *msg,
		     size_t len);

/* -o's file written from memfd (read from its start). 0, or -1 with msg. */
int uct_reader_write_output(struct uct_reader *r, int memfd, char *msg, size_t len);

/* A uct_web_load_fn (arg: the reader) */
int uct_reader_load_web(void *arg, struct uct_web_config *w, const char *path, char *msg,
			size_t len);

/* Close it; it removes the pins and ends (waited for a while). */
void uct_reader_stop(struct uct_reader *r);

#endif /* UCT_READER_H */
