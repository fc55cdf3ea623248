/* SPDX-License-Identifier: GPL-2.0 */
/* opts.h - command line of ucounttop (parsed without touching the kernel). */
#ifndef UCT_OPTS_H
#define UCT_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include "model.h"

enum uct_cmd { UCT_CMD_TOP, UCT_CMD_TRACE, UCT_CMD_CHECK };

/* --listen ADDR:PORT, parsed (an address literal: no name lookup) */
struct uct_listen_addr {
	int family;			/* AF_INET or AF_INET6; 0: no --listen */
	unsigned char addr[16];		/* network byte order */
	unsigned short port;		/* 1..65535 */
	bool any;			/* :PORT or [::]:PORT: every address,
					 * IPv6 and IPv4 */
};
enum uct_output { UCT_OUT_TTY, UCT_OUT_BATCH, UCT_OUT_JSON, UCT_OUT_OPENMETRICS, UCT_OUT_PROMETHEUS,
		  UCT_OUT_KTAP };

struct uct_opts {
	enum uct_cmd cmd;
	enum uct_output output;
	double delay;			/* -d seconds */
	long iterations;		/* -n, -1 = until interrupted */
	const char *output_file;	/* -o FILE: the live view replaces it
					 * atomically per refresh, check writes
					 * its report to it */
	const char *listen;		/* --listen ADDR:PORT as given, or NULL */
	struct uct_listen_addr listen_addr;
	const char *web_config;		/* --web.config.file FILE: TLS, basic auth */
	long long ns_filter;		/* --ns, 0 = all */
	long long uid_filter;		/* --uid (a global kuid), -1 = all */
	bool kuid;			/* --kuid: the table shows kuids */
	int pid_filter;			/* --pid: that process's chain, 0 = all */
	char container[UCT_CFILTER_MAX + 1];	/* --container: id prefix (lowercase), name or
					 * namespace/pod[/container]; "" = all */
	int type_filter;		/* -t, -1 = all */
	enum uct_sort sort;		/* -s */
	bool events;			/* --events: per-event hooks */
	bool stack;			/* trace --stack */
	double duration;		/* trace --duration, 0 = until interrupted */
	long count;			/* trace --count, 0 = unlimited */
	const char *write_file;		/* trace -w FILE: records, not lines ("-": stdout) */
	const char *read_file;		/* trace -r FILE: print what -w recorded */
	const char *pin_dir;		/* --pin */
	bool keep_pinned;		/* --keep-pinned */
	unsigned max_entries;		/* --max-entries (stats map) */
	unsigned ringbuf_kb;		/* --ringbuf-kb */
	bool force_task_iter;		/* --task-iter */
	bool no_tracepoints;		/* --no-tracepoints */
	bool no_tenant_labels;		/* --no-tenant-labels */
	const char *run_as;		/* --run-as USER, NULL: the default */
	bool verbose;			/* -v: libbpf messages */
	/* check */
	char **cmd_argv;		/* CMD [ARGS...] (NULL-terminated, in argv);
					 * with --kselftest, the directories */
	bool kselftest;			/* --kselftest: run every test of DIR... */
	double settle;			/* --settle: most seconds to wait for CMD's
					 * descendants and deferred frees */
	double timeout;			/* --timeout: bound on CMD, 0 = none */
	bool fail_outstanding;		/* --fail-outstanding */
	const char *cmd_user;		/* --user: CMD's user, NULL: ours */
};

/*
 * Parse argv into o. Returns -1 to go on, or an exit code: 0 after
 * --help/--version (text on out), UCT_EXIT_USAGE after an error (message
 * on err). Resets getopt, so it may be called repeatedly (tests).
 */
int uct_parse_opts(int argc, char **argv, struct uct_opts *o, FILE *out, FILE *err);

void uct_usage(FILE *f, const char *prog);

#endif /* UCT_OPTS_H */
