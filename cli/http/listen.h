/* SPDX-License-Identifier: GPL-2.0 */
/*
 * listen.h - ucounttop --listen ADDR:PORT: the live view's OpenMetrics
 * families served over HTTP for Prometheus (libmicrohttpd).
 */
#ifndef UCT_LISTEN_H
#define UCT_LISTEN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "opts.h"
#include "views.h"
#include "hasher.h"
#include "web_config.h"

/* The bounds (ucounttop(8), HTTP) */
#define UCT_LISTEN_MAX_CONN	16	/* connections served at once */
#define UCT_LISTEN_PER_ADDR	4	/* of them, from one client address */
#define UCT_LISTEN_CONN_MEM	16384	/* bytes per connection for its request */
#define UCT_LISTEN_TIMEOUT	10	/* seconds a connection may stay idle */
#define UCT_LISTEN_DEADLINE	5	/* seconds to send a request's headers */
#define UCT_LISTEN_SEND_DEADLINE 30	/* seconds to take a response */
#define UCT_LISTEN_LIFETIME	120	/* seconds a connection is kept... */
#define UCT_LISTEN_REQUESTS	100	/* ...or requests: then closed after its answer */
#define UCT_LISTEN_BACKOFF_MAX	30	/* seconds a client waits after failed logins */
#define UCT_LISTEN_BACKOFF_SLOTS 64	/* clients (addresses, /64s) remembered */

struct MHD_Daemon;
struct MHD_Response;
struct MHD_Connection;

/* A client as the bounds count it: an IPv4 address, or an IPv6 /64 (one
 * host's, or one site's: a /64 is what one gets) */
struct uct_listen_client {
	unsigned char key[16];		/* IPv4: 4 bytes; IPv6: the first 8 */
	bool v6;
};

struct sockaddr;

/* sa's client (NULL: the all-zero one): an IPv4-mapped IPv6 address is
 * its IPv4 address */
void uct_listen_client_of(const struct sockaddr *sa, struct uct_listen_client *c);
bool uct_listen_same_client(const struct uct_listen_client *a, const struct uct_listen_client *b);

/* A connection: shut down when its request's headers take longer than
 * the deadline after its accept or its last answer, when its answer
 * takes longer than the send deadline, and after the answer that ends
 * its lifetime or request count, or after a 401, 404 or 405. */
struct uct_listen_conn {
	int fd;				/* -1: a free slot */
	double accepted;
	double since;			/* accepted, or its last request answered */
	double req_since;		/* its request's headers came in */
	unsigned requests;		/* answered */
	bool in_request;		/* its request's headers are in */
	bool close_after;		/* shut down once this answer is sent */
	bool shut;			/* shut down: MHD closes it */
	struct uct_listen_client client;
};

/* Failed logins from a client: no bcrypt for it until `until` */
struct uct_listen_backoff {
	struct uct_listen_client client;
	unsigned fails;
	double until;
};

/* Take a new snapshot into the model the views read: 0, or not 0 after
 * saying why on stderr. */
typedef int (*uct_snapshot_fn)(void *ctx);

/* Reads the web configuration at path into w: 0, or an exit code with
 * msg, as uct_web_config_load() */
typedef int (*uct_web_load_fn)(void *arg, struct uct_web_config *w, const char *path,
			       char *msg, size_t len);

struct uct_listen_login;

struct uct_listen {
	int fd;				/* listening socket until the server owns it */
	char name[64];			/* "127.0.0.1:9465", "[::1]:9465" */
	unsigned timeout;		/* idle seconds (UCT_LISTEN_TIMEOUT; tests) */
	unsigned deadline;		/* header seconds (UCT_LISTEN_DEADLINE) */
	unsigned send_deadline;		/* answer seconds (UCT_LISTEN_SEND_DEADLINE) */
	double backoff_first;		/* seconds after a first failed login (1; tests) */
	struct uct_listen_conn conn[UCT_LISTEN_MAX_CONN];
	struct MHD_Daemon *daemon;
	/* what a scrape is answered from */
	const struct uct_model *m;
	const struct uct_view_ctx *c;
	uct_snapshot_fn snapshot;
	void *ctx;
	double interval;		/* at most one snapshot per interval (-d) */
	bool have;			/* a snapshot was taken... */
	double taken;			/* ...then (uct_now_s()) */
	double scrape_s;		/* ...took this, with render_s */
	double render_s;		/* the last document's rendering took */
	unsigned long long errors;	/* scrapes answered 500 */
	struct MHD_Response *doc[UCT_METRICS_NFMT];	/* rendered from it */
	struct MHD_Response *not_found, *landing, *not_allowed, *failed, *unauthorized;
	/* --web.config.file: TLS when web.cert, basic auth when web.nusers;
	 * read again on SIGHUP */
	bool web_on;
	struct uct_web_config web;
	char web_path[PATH_MAX];
	/* how SIGHUP reads it again (NULL: uct_web_config_load()) */
	uct_web_load_fn load;
	void *load_arg;
	bool verbose;
	struct uct_listen_backoff backoff[UCT_LISTEN_BACKOFF_SLOTS];
	/* logins that need a bcrypt: run by the hasher (hasher.h), their
	 * connections suspended meanwhile, one at a time per client */
	struct uct_hasher hasher;
	bool hashing;			/* its threads started */
	struct uct_listen_login *logins[UCT_HASHER_JOBS];
	struct MHD_Response *busy;	/* 503: no room for another bcrypt */
};

/*
 * Read the web configuration web_config (NULL: none; plain HTTP, no
 * authentication), then bind a and listen. main() calls it before any BPF
 * is loaded: a bad configuration or a port in use fails at once, with
 * nothing attached. UCT_EXIT_OK, or an exit code with msg: UCT_EXIT_USAGE
 * (the configuration, its certificate or key), UCT_EXIT_FAIL (cannot bind:
 * in use, not an address here), UCT_EXIT_PRIV (a port below 1024 without
 * CAP_NET_BIND_SERVICE), UCT_EXIT_KERNEL (no IPv4 or IPv6 in this kernel,
 * no TLS in libmicrohttpd, no bcrypt in libcrypt).
 */
int uct_listen_open(struct uct_listen *s, const struct uct_listen_addr *a, const char *web_config,
		    char *msg, size_t len);

/*
 * Serve /metrics until *stop, in the calling thread: a scrape renders m
 * (after calling snapshot, at most once per interval seconds). Blocks
 * SIGINT, SIGTERM and SIGHUP except while waiting, so a signal ends the
 * wait, never a snapshot. When *reload is set (SIGHUP), the web
 * configuration, certificate and key are read again and, if they are
 * good, served from then on (the connections open are closed; TLS cannot
 * be turned on or off so); if not, the ones in use stay, said on
 * stderr. UCT_EXIT_OK, or UCT_EXIT_FAIL said on stderr.
 */
int uct_listen_run(struct uct_listen *s, const struct uct_model *m, const struct uct_view_ctx *c,
		   uct_snapshot_fn snapshot, void *ctx, double interval, bool verbose,
		   volatile sig_atomic_t *stop, volatile sig_atomic_t *reload);

/* Stop serving and close everything (also after a failed open). */
void uct_listen_close(struct uct_listen *s);

#endif /* UCT_LISTEN_H */
