// SPDX-License-Identifier: GPL-2.0
/*
 * listen.c - ucounttop --listen ADDR:PORT: GET or HEAD /metrics answers
 * with the live view's OpenMetrics families, in OpenMetrics 1.0.0 or the
 * Prometheus text format 0.0.4 as the scraper's Accept header asks
 * (negotiate.c), GET or HEAD / a landing page that links it; other paths
 * get 404, other methods 405.
 *
 * One serving thread (and the hasher's, which run bcrypt alone and touch
 * nothing else). libmicrohttpd runs without threads of its own (MHD_USE_EPOLL
 * alone, no internal polling thread): uct_listen_run() waits on MHD's
 * epoll descriptor and calls MHD_run(), which calls on_request(), which
 * takes the snapshot and renders it. The model, the loader's read buffers
 * and libbpf's map reads are used by this thread only, as in every other
 * mode, so nothing needs a lock and no two snapshots can interleave. The
 * price: other connections wait while a snapshot is taken; Prometheus
 * sends one scrape at a time to a target.
 *
 * Snapshots follow scrapes: none while nobody scrapes, one per scrape,
 * but at most one per -d seconds (default 1): a scrape sooner after the
 * last snapshot gets the same document, as every scraper of an exporter
 * gets the state of the moment it reads. So two Prometheus servers, or a
 * client looping on curl, cost one snapshot per second at most, and no
 * document is older than -d when it is sent.
 *
 * Bounds: at most UCT_LISTEN_MAX_CONN connections at once, and
 * UCT_LISTEN_PER_ADDR from one client, an IPv4 address or an IPv6 /64
 * (more wait in the listen backlog, where the keep-alive connection idle
 * the longest makes room for them; past the per-client bound, the
 * client's connection that has waited longest for its headers makes
 * room, and without one the new connection is shut down as it comes:
 * on_connection()); a connection ends after a
 * 401, 404 or 405, after UCT_LISTEN_REQUESTS requests or
 * UCT_LISTEN_LIFETIME seconds, or when its answer is not taken within
 * UCT_LISTEN_SEND_DEADLINE; a login's bcrypt runs in the hasher's
 * threads (hasher.h) while its connection is suspended, one per client,
 * UCT_HASHER_JOBS at most (503 past that); failed logins put their client
 * in a backoff without bcrypt (backoff_fail()); UCT_LISTEN_CONN_MEM bytes
 * per connection for its request line and headers (MHD answers a larger
 * request 431 or 414); no request body is read (GET and HEAD have none,
 * other methods are answered at once, and MHD closes the connection
 * instead of reading the body); connections idle for UCT_LISTEN_TIMEOUT
 * seconds are closed, and so is one that has not sent its request's
 * headers UCT_LISTEN_DEADLINE seconds after it was accepted or its last
 * request was answered, however often it sends a byte: a client that
 * trickles its headers holds a slot that long at most. MHD has no such
 * deadline of its own; the loop below shuts the socket down, and MHD
 * then closes the connection as it would any closed by its peer.
 * A document is rendered once per snapshot and
 * format and shared, by reference, by the connections that send it.
 *
 * --web.config.file (web_config.c): TLS through MHD's GnuTLS, and basic
 * authentication (basic_auth.c) asked of every request, whatever its path
 * or method. The bounds hold under TLS as they are: a connection is
 * accepted, counted and given its deadline before its handshake, so a
 * client that never completes one is cut like one that never sends its
 * headers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "clock.h"
#include "common.h"
#include "listen.h"
#include "mhd.h"
#include "negotiate.h"
#include "basic_auth.h"

/* TLS 1.2 and 1.3 only, as exporter-toolkit's default minimum */
#define UCT_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

/* Port 0 (the tests' only): name the port the kernel chose */
static int name_bound_port(struct uct_listen *s, bool v6, const char *host)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	unsigned port = 0;

	if (!getsockname(s->fd, (struct sockaddr *)&ss, &sl))
		port = ntohs(v6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			     ((struct sockaddr_in *)&ss)->sin_port);
	snprintf(s->name, sizeof(s->name), v6 ? "[%s]:%u" : "%s:%u", host, port);
	return UCT_EXIT_OK;
}

/* MHD's first message, for a certificate or key it refuses */
struct log_buf {
	char *buf;
	size_t len;
};

static void capture_log(void *cls, const char *fmt, va_list ap)
{
	struct log_buf *b = cls;
	size_t n;

	if (*b->buf)
		return;
	vsnprintf(b->buf, b->len, fmt, ap);
	n = strlen(b->buf);
	while (n && (b->buf[n - 1] == '\n' || b->buf[n - 1] == '.'))
		b->buf[--n] = 0;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **req);

/* The configuration, and what it needs: TLS in libmicrohttpd, a certificate
 * and key GnuTLS takes (tried on a server with no socket, so a bad pair
 * fails now, not after BPF is loaded), bcrypt in libcrypt */
/* The TLS options of w, for MHD_OPTION_ARRAY: none without a certificate
 * (MHD would say so on every start) */
static void tls_options(const struct uct_web_config *w, struct MHD_OptionItem o[4])
{
	o[0] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, w->key };
	o[1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, w->cert };
	o[2] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, UCT_TLS_PRIORITIES };
	o[3] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	if (!w->cert)
		o[0].option = MHD_OPTION_END;
}

static int web_open(struct uct_listen *s, const char *path, char *msg, size_t len)
{
	struct MHD_OptionItem tls[4];
	struct uct_web_config *w = &s->web;
	struct MHD_Daemon *d;
	char why[256] = "";
	struct log_buf lb = { why, sizeof(why) };
	int err;

	err = s->load ? s->load(s->load_arg, w, path, msg, len) :
			uct_web_config_load(w, path, msg, len);
	if (err)
		return err;
	s->web_on = true;
	if (w->cert && uct_mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(msg, len, "--web.config.file %s: tls_server_config: this libmicrohttpd has "
			 "no TLS (built without GnuTLS)", path);
		return UCT_EXIT_KERNEL;
	}
	if (w->cert) {
		tls_options(w, tls);
		d = uct_mhd.start_daemon(MHD_USE_TLS | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ERROR_LOG,
					 0, NULL, NULL, on_request, s,
					 MHD_OPTION_EXTERNAL_LOGGER, capture_log, &lb,
					 MHD_OPTION_ARRAY, tls,
					 MHD_OPTION_END);
		if (!d) {
			snprintf(msg, len, "--web.config.file %s: cert_file %s and key_file %s: no "
				 "TLS server with them: %s", path, w->cert_file, w->key_file,
				 *why ? why : "libmicrohttpd does not say why");
			return UCT_EXIT_USAGE;
		}
		uct_mhd.stop_daemon(d);
	}
	if (w->nusers)
		return uct_basic_auth_load(msg, len);
	return UCT_EXIT_OK;
}

int uct_listen_open(struct uct_listen *s, const struct uct_listen_addr *a, const char *web_config,
		    char *msg, size_t len)
{
	bool v6 = a->family == AF_INET6;
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(a->port) };
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(a->port) };
	char host[INET6_ADDRSTRLEN] = "?";
	const char *what = "bind", *hint = "";
	int one = 1, v6only, err;

	/* the library first: nothing bound, nothing to undo, if it is missing */
	err = uct_mhd_load(msg, len);
	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->timeout = UCT_LISTEN_TIMEOUT;
	s->deadline = UCT_LISTEN_DEADLINE;
	s->send_deadline = UCT_LISTEN_SEND_DEADLINE;
	s->backoff_first = 1;
	memcpy(v6 ? (void *)&in6.sin6_addr : (void *)&in.sin_addr, a->addr, v6 ? 16 : 4);
	inet_ntop(a->family, a->addr, host, sizeof(host));
	snprintf(s->name, sizeof(s->name), v6 ? "[%s]:%u" : "%s:%u", host, a->port);
	/* before the socket: a bad configuration leaves nothing bound */
	if (web_config) {
		snprintf(s->web_path, sizeof(s->web_path), "%s", web_config);
		err = web_open(s, web_config, msg, len);
		if (err) {
			uct_web_config_free(&s->web);
			return err;
		}
	}

	s->fd = socket(a->family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	/* every address on a kernel without IPv6: IPv4's every address */
	if (s->fd < 0 && errno == EAFNOSUPPORT && a->any) {
		v6 = false;
		strcpy(host, "0.0.0.0");
		snprintf(s->name, sizeof(s->name), "%s:%u", host, a->port);
		s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	}
	if (s->fd < 0) {
		err = errno;
		if (err == EAFNOSUPPORT) {
			snprintf(msg, len, "--listen %s: this kernel has no %s (CONFIG_%s): %s", s->name,
				 v6 ? "IPv6" : "IPv4", v6 ? "IPV6" : "INET", strerror(err));
			uct_web_config_free(&s->web);
			return UCT_EXIT_KERNEL;
		}
		snprintf(msg, len, "--listen %s: cannot create a socket: %s", s->name, strerror(err));
		uct_web_config_free(&s->web);
		return UCT_EXIT_FAIL;
	}
	/* Old connections in TIME_WAIT must not keep a restarted ucounttop
	 * off its port; Linux still refuses a second listener on it. Every
	 * address (:PORT, [::]:PORT) is IPv6's and IPv4's, whatever
	 * net.ipv6.bindv6only says; another IPv6 address is IPv6 only. */
	v6only = !a->any;
	if (setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (v6 && setsockopt(s->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only))))
		what = "set the socket's options";
	else if (bind(s->fd, v6 ? (struct sockaddr *)&in6 : (struct sockaddr *)&in,
		      v6 ? sizeof(in6) : sizeof(in)))
		what = "bind";
	else if (listen(s->fd, UCT_LISTEN_MAX_CONN))
		what = "listen";
	else
		return a->port ? UCT_EXIT_OK : name_bound_port(s, v6, host);
	err = errno;
	close(s->fd);
	s->fd = -1;
	if (err == EADDRINUSE)
		hint = " (another process listens there: ss -ltnp)";
	else if (err == EADDRNOTAVAIL)
		hint = " (no interface of this machine has that address)";
	else if (err == EACCES)
		hint = " (ports below 1024 need CAP_NET_BIND_SERVICE)";
	snprintf(msg, len, "--listen %s: cannot %s: %s%s", s->name, what, strerror(err), hint);
	uct_web_config_free(&s->web);
	return err == EACCES || err == EPERM ? UCT_EXIT_PRIV : UCT_EXIT_FAIL;
}

static void drop_documents(struct uct_listen *s)
{
	int i;

	/* connections still sending one hold their own reference */
	for (i = 0; i < UCT_METRICS_NFMT; i++) {
		if (s->doc[i])
			uct_mhd.destroy_response(s->doc[i]);
		s->doc[i] = NULL;
	}
}

/* The document of format fmt for a scrape now: NULL if the snapshot or
 * memory failed. */
static struct MHD_Response *document(struct uct_listen *s, enum uct_metrics_fmt fmt)
{
	struct uct_view_ctx c;
	struct MHD_Response *r;
	char *buf = NULL;
	size_t len = 0;
	double t0;
	FILE *f;

	if (!s->have || uct_now_s() - s->taken >= s->interval) {
		drop_documents(s);
		s->have = false;
		s->taken = uct_now_s();
		if (s->snapshot(s->ctx))
			return NULL;
		s->have = true;
		/* a document cannot time its own rendering: the last one's,
		 * so both formats of a snapshot say the same */
		s->scrape_s = uct_now_s() - s->taken + s->render_s;
	}
	if (s->doc[fmt])
		return s->doc[fmt];
	/* the exporter's own metrics, in a copy made after the snapshot (it
	 * sets the context's time): the view reads its context */
	c = *s->c;
	c.scrape_seconds = s->scrape_s;
	c.scrape_errors = s->errors;
	t0 = uct_now_s();
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	uct_view_metrics(f, s->m, &c, fmt);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	s->render_s = uct_now_s() - t0;
	r = uct_mhd.create_response_from_buffer_with_free_callback(len, buf, free);
	if (!r) {
		free(buf);
		return NULL;
	}
	if (uct_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    uct_metrics_content_type(fmt)) != MHD_YES) {
		uct_mhd.destroy_response(r);
		return NULL;
	}
	s->doc[fmt] = r;
	return r;
}

/* The slot of a connection (on_connection put it in its socket context) */
static struct uct_listen_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci;

	ci = uct_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

void uct_listen_client_of(const struct sockaddr *sa, struct uct_listen_client *c)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	const unsigned char *a6;

	memset(c, 0, sizeof(*c));
	if (sa && sa->sa_family == AF_INET) {
		memcpy(c->key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		a6 = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		if (!memcmp(a6, mapped, sizeof(mapped))) {
			memcpy(c->key, a6 + 12, 4);
		} else {
			memcpy(c->key, a6, 8);
			c->v6 = true;
		}
	}
}

static void client_of(struct MHD_Connection *conn, struct uct_listen_client *c)
{
	const union MHD_ConnectionInfo *ci;

	ci = uct_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	uct_listen_client_of(ci ? ci->client_addr : NULL, c);
}

bool uct_listen_same_client(const struct uct_listen_client *a, const struct uct_listen_client *b)
{
	return a->v6 == b->v6 && !memcmp(a->key, b->key, sizeof(a->key));
}

/* c's backoff entry, or NULL */
static struct uct_listen_backoff *backoff_of(struct uct_listen *s,
					     const struct uct_listen_client *c)
{
	for (int i = 0; i < UCT_LISTEN_BACKOFF_SLOTS; i++)
		if (s->backoff[i].fails && uct_listen_same_client(&s->backoff[i].client, c))
			return &s->backoff[i];
	return NULL;
}

/* A failed login of c (a bcrypt ran): no other for 1 s, twice as long
 * after each further one, UCT_LISTEN_BACKOFF_MAX at most. A full table
 * forgets the client whose wait ends first. */
static void backoff_fail(struct uct_listen *s, const struct uct_listen_client *c, double now)
{
	struct uct_listen_backoff *b = backoff_of(s, c);
	char who[INET6_ADDRSTRLEN + 4] = "?";
	double wait;

	if (!b) {
		b = &s->backoff[0];
		for (int i = 1; i < UCT_LISTEN_BACKOFF_SLOTS && b->fails; i++)
			if (!s->backoff[i].fails || s->backoff[i].until < b->until)
				b = &s->backoff[i];
		*b = (struct uct_listen_backoff){ .client = *c };
	}
	b->fails++;
	wait = b->fails > 5 ? UCT_LISTEN_BACKOFF_MAX :
			      s->backoff_first * (double)(1u << (b->fails - 1));
	if (wait > UCT_LISTEN_BACKOFF_MAX)
		wait = UCT_LISTEN_BACKOFF_MAX;
	b->until = now + wait;
	if (s->verbose) {
		inet_ntop(c->v6 ? AF_INET6 : AF_INET, c->key, who, sizeof(who));
		fprintf(stderr, "ucounttop: http: failed login %u from %s%s: no bcrypt for it "
			"for %g s\n", b->fails, who, c->v6 ? "/64" : "", wait);
	}
}

/* Shut a connection down (MHD reads the end of its stream and closes it) */
static void shut(struct uct_listen_conn *lc)
{
	if (lc->fd >= 0 && !lc->shut)
		shutdown(lc->fd, SHUT_RDWR);
	lc->shut = true;
}

/*
 * A connection accepted: a slot for it, its deadline from now; or, when
 * its address holds UCT_LISTEN_PER_ADDR connections already, shut down at
 * once (MHD then closes it). Closed: its slot is free.
 */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct uct_listen *s = cls;
	struct uct_listen_conn *lc = *socket_context, *free_slot = NULL, *waiting = NULL;
	const union MHD_ConnectionInfo *ci;
	struct uct_listen_client client;
	int i, same = 0;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (lc)
			lc->fd = -1;
		*socket_context = NULL;
		return;
	}
	ci = uct_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	client_of(conn, &client);
	for (i = 0; i < UCT_LISTEN_MAX_CONN; i++) {
		struct uct_listen_conn *c = &s->conn[i];

		if (c->fd < 0) {
			if (!free_slot)
				free_slot = c;
		} else if (!c->shut && uct_listen_same_client(&c->client, &client)) {
			same++;
			/* its connection waiting longest for headers */
			if (!c->in_request && (!waiting || c->since < waiting->since))
				waiting = c;
		}
	}
	/* a client at its bound: the new connection takes the place of its
	 * one that has waited longest for its headers (one whose headers are
	 * in is never closed for it), so that clients trickling headers from
	 * a scraper's address do not keep the scraper out */
	if (same >= UCT_LISTEN_PER_ADDR && waiting && free_slot) {
		shut(waiting);
		same--;
	}
	if (same >= UCT_LISTEN_PER_ADDR || !free_slot) {
		shutdown(ci->connect_fd, SHUT_RDWR);
		return;
	}
	*free_slot = (struct uct_listen_conn){ .fd = ci->connect_fd, .since = uct_now_s(),
					       .client = client };
	free_slot->accepted = free_slot->since;
	*socket_context = free_slot;
}

/* A request answered: the next one on this connection has its own
 * deadline, unless this was the last it may send */
/* A login waiting for its bcrypt: MHD's request context (*req) */
struct uct_listen_login {
	struct uct_hash_req hr;
	struct uct_listen_client client;
	struct MHD_Connection *conn;
};

static void on_completed(void *cls, struct MHD_Connection *conn, void **req,
			 enum MHD_RequestTerminationCode code)
{
	struct uct_listen_conn *lc = conn_of(conn);
	struct uct_listen_login *in = *req;

	if (in) {
		explicit_bzero(in, sizeof(*in));
		free(in);
		*req = NULL;
	}

	if (!lc)
		return;
	lc->since = uct_now_s();
	lc->in_request = false;
	lc->requests++;
	if (lc->close_after || lc->requests >= UCT_LISTEN_REQUESTS ||
	    lc->since - lc->accepted >= UCT_LISTEN_LIFETIME)
		shut(lc);
}

/* Shut down the connections past their deadline (headers, or sending
 * the answer); the seconds until the next one's, or -1 when none. */
static double enforce_deadlines(struct uct_listen *s)
{
	double now = uct_now_s(), next = -1, left;
	int i;

	for (i = 0; i < UCT_LISTEN_MAX_CONN; i++) {
		struct uct_listen_conn *lc = &s->conn[i];

		if (lc->fd < 0 || lc->shut)
			continue;
		left = lc->in_request ? lc->req_since + s->send_deadline - now :
					lc->since + s->deadline - now;
		if (left <= 0) {
			shut(lc);
			continue;
		}
		if (next < 0 || left < next)
			next = left;
	}
	return next;
}

/* With every slot taken (*full), the keep-alive connection idle the
 * longest after its answer, or NULL: it makes room for a client waiting
 * to be accepted (a scraper comes back; a client that holds connections
 * open does not keep others out) */
static struct uct_listen_conn *room_maker(struct uct_listen *s, bool *full)
{
	struct uct_listen_conn *idle = NULL;
	int i;

	*full = false;
	for (i = 0; i < UCT_LISTEN_MAX_CONN; i++) {
		struct uct_listen_conn *lc = &s->conn[i];

		if (lc->fd < 0 || lc->shut)
			return NULL;	/* a slot is or will be free */
		if (!lc->in_request && lc->requests && (!idle || lc->since < idle->since))
			idle = lc;
	}
	*full = true;
	return idle;
}

/* job for the hasher, conn suspended until it ran; NULL when the hasher
 * has no room, or this client has a login waiting already */
static struct uct_listen_login *hash_later(struct uct_listen *s, struct MHD_Connection *conn,
					   const struct uct_listen_client *client,
					   const struct uct_auth_job *job)
{
	struct uct_listen_login *in, **slot = NULL;
	size_t i;

	if (!s->hashing) {
		if (uct_hasher_start(&s->hasher))
			return NULL;
		s->hashing = true;
	}
	for (i = 0; i < UCT_HASHER_JOBS; i++) {
		if (!s->logins[i])
			slot = slot ? slot : &s->logins[i];
		else if (uct_listen_same_client(&s->logins[i]->client, client))
			return NULL;
	}
	in = slot ? calloc(1, sizeof(*in)) : NULL;
	if (!in)
		return NULL;
	in->hr.job = *job;
	in->hr.owner = in;
	in->client = *client;
	in->conn = conn;
	if (uct_hasher_submit(&s->hasher, &in->hr)) {
		explicit_bzero(in, sizeof(*in));
		free(in);
		return NULL;
	}
	*slot = in;
	uct_mhd.suspend_connection(conn);
	return in;
}

/* The logins whose bcrypt ran: their connections resumed (answered in
 * MHD's next run) */
static void resume_logins(struct uct_listen *s)
{
	struct uct_hash_req *r;
	size_t i;

	while (s->hashing && (r = uct_hasher_done(&s->hasher))) {
		struct uct_listen_login *in = r->owner;

		for (i = 0; i < UCT_HASHER_JOBS; i++)
			if (s->logins[i] == in)
				s->logins[i] = NULL;
		uct_mhd.resume_connection(in->conn);
	}
}

/* Before the server stops: no connection may stay suspended */
static void settle_logins(struct uct_listen *s)
{
	if (!s->hashing)
		return;
	uct_hasher_drain(&s->hasher);
	resume_logins(s);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **req)
{
	struct uct_listen *s = cls;
	struct uct_listen_conn *lc = conn_of(conn);
	struct MHD_Response *r;
	const char *accept;
	bool landing;

	/* its headers are in: the deadline is met, the send deadline starts */
	if (lc) {
		lc->in_request = true;
		lc->req_since = uct_now_s();
	}
	/* before anything else: a stranger learns no more than that. A
	 * client in its backoff after failed logins gets no bcrypt: only a
	 * password that verified before gets in. A bcrypt runs in the
	 * hasher while the connection waits, suspended; this is called
	 * again when it is resumed */
	if (s->web.nusers) {
		struct uct_listen_login *in = *req;
		struct uct_listen_client client;
		struct uct_listen_backoff *b;
		struct uct_auth_job job;
		enum uct_auth a;

		client_of(conn, &client);
		b = backoff_of(s, &client);
		if (in && in->hr.done) {
			a = in->hr.job.ok ? UCT_AUTH_OK : UCT_AUTH_DENY;
			if (!in->hr.job.ok)
				backoff_fail(s, &client, uct_now_s());
			else if (b)
				b->fails = 0;	/* a login that verified ends its backoff */
			uct_basic_auth_remember(&s->web, &in->hr.job);
		} else {
			a = uct_basic_auth_check(&s->web,
						 uct_mhd.lookup_connection_value(conn, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_AUTHORIZATION),
						 !b || b->until <= uct_now_s(), &job);
		}
		if (a == UCT_AUTH_HASH) {
			in = hash_later(s, conn, &client, &job);
			explicit_bzero(&job, sizeof(job));
			if (in) {
				*req = in;
				return MHD_YES;
			}
			if (lc)
				lc->close_after = true;
			return uct_mhd.queue_response(conn, MHD_HTTP_SERVICE_UNAVAILABLE, s->busy);
		}
		if (a == UCT_AUTH_DENY) {
			if (lc)
				lc->close_after = true;
			return uct_mhd.queue_response(conn, MHD_HTTP_UNAUTHORIZED, s->unauthorized);
		}
	}
	/* answered at once, body or not: MHD then closes the connection
	 * rather than read a body nobody wants; so do we, after a 404 or 405 */
	landing = !strcmp(url, "/");
	if ((strcmp(url, "/metrics") && !landing) ||
	    (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))) {
		if (lc)
			lc->close_after = true;
		if (strcmp(url, "/metrics") && !landing)
			return uct_mhd.queue_response(conn, MHD_HTTP_NOT_FOUND, s->not_found);
		return uct_mhd.queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, s->not_allowed);
	}
	/* the landing page, as exporters have one: no snapshot */
	if (landing)
		return uct_mhd.queue_response(conn, MHD_HTTP_OK, s->landing);
	accept = uct_mhd.lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	/* HEAD: the same document, MHD sends its headers only */
	r = document(s, uct_negotiate_metrics(accept));
	if (!r) {
		/* ucounttop_scrape_errors_total, in the next document */
		s->errors++;
		return uct_mhd.queue_response(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, s->failed);
	}
	return uct_mhd.queue_response(conn, MHD_HTTP_OK, r);
}

/* With -v: what libmicrohttpd says (refused connections, timeouts) */
static void on_log(void *cls, const char *fmt, va_list ap)
{
	fputs("ucounttop: http: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (!*fmt || fmt[strlen(fmt) - 1] != '\n')
		fputc('\n', stderr);
}

/* text of type ctype, with a header name: value more (name NULL: none),
 * saying the connection is closed after it (every one of these is) */
static struct MHD_Response *typed_response(const char *text, const char *ctype, const char *name,
					   const char *value)
{
	struct MHD_Response *r;

	r = uct_mhd.create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (r && (uct_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype) != MHD_YES ||
		  uct_mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES ||
		  (name && uct_mhd.add_response_header(r, name, value) != MHD_YES))) {
		uct_mhd.destroy_response(r);
		r = NULL;
	}
	return r;
}

static struct MHD_Response *text_response(const char *text, const char *name, const char *value)
{
	return typed_response(text, "text/plain; charset=utf-8", name, value);
}

/* What / shows a person who opens the address in a browser */
static const char landing_html[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
	"<title>ucounttop</title></head>\n<body>\n<h1>ucounttop</h1>\n"
	"<p>Per-user-namespace rlimit counters (RLIMIT_NPROC, RLIMIT_MSGQUEUE, "
	"RLIMIT_SIGPENDING, RLIMIT_MEMLOCK) of this machine, for Prometheus.</p>\n"
	"<p><a href=\"/metrics\">Metrics</a></p>\n</body>\n</html>\n";

/* No connection held: every slot free (a new server's) */
static void forget_connections(struct uct_listen *s)
{
	for (int i = 0; i < UCT_LISTEN_MAX_CONN; i++)
		s->conn[i].fd = -1;
}

/* The server on s->fd with s->web's TLS, if any (s->daemon: NULL when it
 * did not start) */
static void start_server(struct uct_listen *s)
{
	struct MHD_OptionItem tls[4];

	tls_options(&s->web, tls);
	/* MHD_USE_EPOLL without MHD_USE_INTERNAL_POLLING_THREAD: no thread,
	 * see the top of this file. The logger goes first, as MHD asks. */
	s->daemon = uct_mhd.start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
					 (s->verbose ? MHD_USE_ERROR_LOG : 0) |
					 (s->web.cert ? MHD_USE_TLS : 0), 0, NULL, NULL,
				     on_request, s,
				     MHD_OPTION_EXTERNAL_LOGGER, on_log, NULL,
				     MHD_OPTION_LISTEN_SOCKET, s->fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)UCT_LISTEN_MAX_CONN,
				     MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				     MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)UCT_LISTEN_CONN_MEM,
				     MHD_OPTION_CONNECTION_TIMEOUT, s->timeout,
				     MHD_OPTION_ARRAY, tls,
				     MHD_OPTION_END);
	/* GnuTLS has the key now (MHD reads it only as it starts): no copy of
	 * ours stays in memory */
	uct_web_config_drop_key(&s->web);
	/* the server closes the socket when it stops; whether it did when it
	 * failed to start is not said: the exit that follows closes it */
	s->fd = -1;
}

/*
 * SIGHUP: the configuration, certificate and key read again and checked
 * as at the start; if good, the server started again on the same socket
 * with them (the connections open are closed). 0, or -1 when the server
 * could not be started again (said on stderr); a bad configuration keeps
 * the one in use, said on stderr.
 */
static int reload_web(struct uct_listen *s)
{
	struct uct_web_config old = s->web;
	char msg[PATH_MAX + 256];
	int err;

	memset(&s->web, 0, sizeof(s->web));
	err = web_open(s, s->web_path, msg, sizeof(msg));
	if (!err && !s->web.cert != !old.cert) {
		snprintf(msg, sizeof(msg), "--web.config.file %s: a reload cannot turn TLS %s "
			 "(restart ucounttop)", s->web_path, old.cert ? "off" : "on");
		err = UCT_EXIT_USAGE;
	}
	if (err) {
		uct_web_config_free(&s->web);
		s->web = old;
		fprintf(stderr, "ucounttop: SIGHUP: %s; the configuration in use stays\n", msg);
		return 0;
	}
	uct_web_config_free(&old);
	/* a new certificate or key needs a new server: same socket */
	if (s->web.cert) {
		settle_logins(s);
		s->fd = (int)uct_mhd.quiesce_daemon(s->daemon);
		uct_mhd.stop_daemon(s->daemon);
		s->daemon = NULL;
		forget_connections(s);
		if (s->fd < 0) {
			fprintf(stderr, "ucounttop: --listen %s: SIGHUP: libmicrohttpd gave no "
				"socket back\n", s->name);
			return -1;
		}
		start_server(s);
		if (!s->daemon) {
			fprintf(stderr, "ucounttop: --listen %s: SIGHUP: libmicrohttpd did not "
				"start again\n", s->name);
			return -1;
		}
	}
	fprintf(stderr, "ucounttop: SIGHUP: %s read again (%s%zu user%s)\n", s->web_path,
		s->web.cert ? "TLS, " : "", s->web.nusers, s->web.nusers == 1 ? "" : "s");
	return 0;
}

int uct_listen_run(struct uct_listen *s, const struct uct_model *m, const struct uct_view_ctx *c,
		   uct_snapshot_fn snapshot, void *ctx, double interval, bool verbose,
		   volatile sig_atomic_t *stop, volatile sig_atomic_t *reload)
{
	const union MHD_DaemonInfo *info;
	sigset_t block, old;
	int rc = UCT_EXIT_OK;
	char mode[128] = "";

	s->m = m;
	s->c = c;
	forget_connections(s);
	s->snapshot = snapshot;
	s->ctx = ctx;
	s->interval = interval;
	s->not_found = text_response("not found: ucounttop serves / and /metrics only\n", NULL, NULL);
	s->landing = typed_response(landing_html, "text/html; charset=utf-8", NULL, NULL);
	s->not_allowed = text_response("method not allowed: GET or HEAD / or /metrics\n",
				       MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	s->failed = text_response("no snapshot: see ucounttop's standard error\n", NULL, NULL);
	s->unauthorized = text_response("unauthorized: a user and password are needed\n",
					MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Basic realm=\"ucounttop\"");
	s->busy = text_response("busy: too many logins being checked; retry\n",
				MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (!s->not_found || !s->landing || !s->not_allowed || !s->failed || !s->unauthorized ||
	    !s->busy) {
		fprintf(stderr, "ucounttop: --listen %s: out of memory\n", s->name);
		return UCT_EXIT_FAIL;
	}
	s->verbose = verbose;
	start_server(s);
	if (!s->daemon) {
		fprintf(stderr, "ucounttop: --listen %s: libmicrohttpd did not start%s\n", s->name,
			verbose ? "" : " (-v says why)");
		return UCT_EXIT_FAIL;
	}
	info = uct_mhd.get_daemon_info(s->daemon, MHD_DAEMON_INFO_EPOLL_FD);
	if (!info) {
		fprintf(stderr, "ucounttop: --listen %s: libmicrohttpd has no epoll descriptor\n",
			s->name);
		return UCT_EXIT_FAIL;
	}
	if (s->web_on && s->web.nusers)
		snprintf(mode, sizeof(mode), "%sbasic auth, %zu user%s%s; ",
			 s->web.cert ? "TLS, " : "", s->web.nusers, s->web.nusers == 1 ? "" : "s",
			 s->web.cert ? "" : ", passwords in clear text without TLS");
	else if (s->web_on)
		snprintf(mode, sizeof(mode), "%sno authentication; ", s->web.cert ? "TLS, " : "");
	fprintf(stderr, "ucounttop: serving %s://%s/metrics (%sa snapshot per scrape, at most one "
		"per %g s)\n", s->web.cert ? "https" : "http", s->name, mode, interval);

	/* The stop signals are let in only while ppoll() waits: one that
	 * comes during a scrape ends the next wait at once, never a read. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	bool was_full = false;
	while (!*stop) {
		const union MHD_DaemonInfo *li = uct_mhd.get_daemon_info(s->daemon,
									MHD_DAEMON_INFO_LISTEN_FD);
		double next = enforce_deadlines(s);
		bool full;
		struct uct_listen_conn *idle = room_maker(s, &full);

		/* a slot freed since MHD was at its limit: MHD watches the
		 * listening socket again only from its next run */
		if (was_full && !full)
			next = 0;
		was_full = full;
		/* at its limit, MHD no longer watches the listening socket:
		 * we do, while a connection could make room */
		struct pollfd pfd[3] = { { .fd = info->epoll_fd, .events = POLLIN },
					 { .fd = idle && li ? li->listen_fd : -1,
					   .events = POLLIN },
					 { .fd = s->hashing ? s->hasher.efd : -1, .events = POLLIN } };
		MHD_UNSIGNED_LONG_LONG ms;
		struct timespec ts, *tsp = NULL;

		if (uct_mhd.get_timeout(s->daemon, &ms) == MHD_YES) {
			ts.tv_sec = (time_t)(ms / 1000);
			ts.tv_nsec = (long)(ms % 1000) * 1000000;
			tsp = &ts;
		}
		/* full with none idle yet: MHD may end an answer only on its
		 * next run, which nothing else would wake for */
		if (full && !idle && (next < 0 || next > 0.1))
			next = 0.1;
		/* wake for the next deadline too */
		if (next >= 0 && (!tsp || next < ts.tv_sec + ts.tv_nsec / 1e9)) {
			ts.tv_sec = (time_t)next;
			ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
			tsp = &ts;
		}
		if (ppoll(pfd, 3, tsp, &old) < 0 && errno != EINTR) {
			fprintf(stderr, "ucounttop: --listen %s: waiting for connections: %s\n",
				s->name, strerror(errno));
			rc = UCT_EXIT_FAIL;
			break;
		}
		if (*stop)
			break;
		if (idle && (pfd[1].revents & POLLIN))
			shut(idle);
		if (pfd[2].revents & POLLIN)
			resume_logins(s);
		if (reload && *reload) {
			*reload = 0;
			if (s->web_on && reload_web(s)) {
				rc = UCT_EXIT_FAIL;
				break;
			}
			info = uct_mhd.get_daemon_info(s->daemon, MHD_DAEMON_INFO_EPOLL_FD);
			if (!info) {
				rc = UCT_EXIT_FAIL;
				break;
			}
			continue;
		}
		if (uct_mhd.run(s->daemon) != MHD_YES) {
			fprintf(stderr, "ucounttop: --listen %s: libmicrohttpd failed\n", s->name);
			rc = UCT_EXIT_FAIL;
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void uct_listen_close(struct uct_listen *s)
{
	if (s->daemon) {
		settle_logins(s);
		uct_mhd.stop_daemon(s->daemon);
	}
	s->daemon = NULL;
	if (s->hashing)
		uct_hasher_stop(&s->hasher);
	s->hashing = false;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	drop_documents(s);
	if (s->not_found)
		uct_mhd.destroy_response(s->not_found);
	if (s->landing)
		uct_mhd.destroy_response(s->landing);
	if (s->not_allowed)
		uct_mhd.destroy_response(s->not_allowed);
	if (s->failed)
		uct_mhd.destroy_response(s->failed);
	if (s->unauthorized)
		uct_mhd.destroy_response(s->unauthorized);
	if (s->busy)
		uct_mhd.destroy_response(s->busy);
	s->not_found = s->landing = s->not_allowed = s->failed = s->unauthorized = s->busy = NULL;
	uct_web_config_free(&s->web);
}
