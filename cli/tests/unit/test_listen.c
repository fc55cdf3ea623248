// SPDX-License-Identifier: GPL-2.0
/*
 * test_listen.c - the --listen server (listen.c) over loopback, in a child
 * process, with a made-up snapshot instead of BPF: statuses, the format
 * each Accept header gets, HEAD, one snapshot per scrape and no more than
 * one per interval, a failed snapshot, the bounds (connections, request
 * size, idle time), SIGTERM, and what binding refuses. With
 * --web.config.file: TLS and basic auth, read by curl and Python's urllib
 * against a certificate openssl makes, the bounds under TLS, and what
 * opening refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "common.h"
#include "listen.h"
#include "negotiate.h"
#include "snapshots.h"
#include "fixture_files.h"

#define PROM_ACCEPT "application/openmetrics-text;version=1.0.0,application/openmetrics-text;" \
		    "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
/* the listening socket's descriptor was closed after uct_listen_close() */
#define EXIT_FD_LEFT 99

/* ---- the server's side (a child process) ---- */
static struct uct_model model;
static int snapshots, fail_at;
static unsigned snapshot_us;	/* how long each snapshot takes */
static bool big_doc;		/* 3000 rows more: a document no socket buffers hold */
static volatile sig_atomic_t stop, hup;

static void on_hup(int sig)
{
	hup = 1;
}

/* The base tree, with root's nproc counting the snapshots: 10 + n */
static int fake_snapshot(void *ctx)
{
	static struct uct_rec recs[16 + 3000];
	size_t n = base_snapshot(recs), i;

	for (i = 0; big_doc && i < 3000; i++)
		recs[n++] = mkrec(1, 0, 5000 + (__u32)i, 0, 0, 0, 1, 0, 0, 0, INF);
	if (snapshot_us)
		usleep(snapshot_us);
	if (++snapshots == fail_at) {
		fprintf(stderr, "test: snapshot %d fails\n", snapshots);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (recs[i].ns_inum == 1 && recs[i].uid == 0)
			recs[i].value[UCT_NPROC] = 10 + snapshots;
	return uct_model_update(&model, recs, n, NULL, 0, 1000.0 + snapshots);
}

static void on_term(int sig)
{
	stop = 1;
}

struct server {
	pid_t pid;
	int port;
};

/* the server a test started, for the teardown when the test failed */
static pid_t running;

static int teardown(void **state)
{
	if (running > 0) {
		kill(running, SIGKILL);
		waitpid(running, NULL, 0);
	}
	running = 0;
	return 0;
}


/* A server on 127.0.0.1 and a port of the kernel's choosing, in a child;
 * fail: the snapshot that fails (0: none) */
/* the header deadline start() gives the server: the idle timeout when
 * 0, so that a test's connections are bound by the timeout it asks for */
static unsigned start_deadline;
static unsigned start_send_deadline;	/* 0: the default */
static double start_backoff;	/* the first failed login's backoff (0: 1 s) */
/* the web configuration start() gives the server (NULL: none); its
 * standard error then goes to server_log */
static const char *start_web;
static char server_log[256];

static void start(struct server *sv, double interval, unsigned timeout, int fail)
{
	struct uct_listen_addr a = { .family = AF_INET, .addr = { 127, 0, 0, 1 }, .port = 0 };
	struct uct_listen s;
	struct sockaddr_in in;
	socklen_t sl = sizeof(in);
	pid_t parent = getpid();
	char msg[256];

	if (uct_listen_open(&s, &a, start_web, msg, sizeof(msg)))
		fail_msg("%s", msg);
	assert_int_equal(getsockname(s.fd, (struct sockaddr *)&in, &sl), 0);
	sv->port = ntohs(in.sin_port);
	snprintf(msg, sizeof(msg), "127.0.0.1:%d", sv->port);
	assert_string_equal(s.name, msg);	/* the port bound, not 0 */
	s.timeout = timeout;
	s.deadline = start_deadline ? start_deadline : timeout;
	if (start_send_deadline)
		s.send_deadline = start_send_deadline;
	if (start_backoff)
		s.backoff_first = start_backoff;
	fflush(NULL);
	sv->pid = fork();
	assert_true(sv->pid >= 0);
	if (!sv->pid) {
		struct sigaction sa = { .sa_handler = on_term };
		struct uct_view_ctx c = { .snapshot_src = "iter/task", .hooks = "x" };
		int fd = s.fd, rc;

		/* a test that fails leaves no server behind: none outlives the
		 * test process, nor holds its standard output */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		if (start_web)
			if (!freopen(server_log, "w", stderr) ||
			    setvbuf(stderr, NULL, _IONBF, 0))	/* read as it runs */
				_exit(1);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		sigaction(SIGTERM, &sa, NULL);
		fail_at = fail;
		snapshots = 0;
		uct_model_init(&model);
		sigaction(SIGHUP, &(struct sigaction){ .sa_handler = on_hup }, NULL);
		rc = uct_listen_run(&s, &model, &c, fake_snapshot, NULL, interval, true, &stop,
				    &hup);
		uct_listen_close(&s);
		uct_model_free(&model);
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			rc = EXIT_FD_LEFT;
		exit(rc);
	}
	running = sv->pid;
	uct_listen_close(&s);		/* the socket and the configuration: the child's now */
}

/* start() with a web configuration (NULL: none), a header deadline and a
 * first failed login's backoff (0: the defaults) */
static void start_with(struct server *sv, const char *web, unsigned deadline, double backoff,
		       double interval, unsigned timeout)
{
	start_web = web;
	start_deadline = deadline;
	start_backoff = backoff;
	start(sv, interval, timeout, 0);
	start_web = NULL;
	start_deadline = 0;
	start_backoff = 0;
}

/* SIGTERM, then the exit status (-1 if it did not end within 10 s) */
static int stop_server(struct server *sv)
{
	int status, i;

	running = 0;
	kill(sv->pid, SIGTERM);
	for (i = 0; i < 1000; i++) {
		if (waitpid(sv->pid, &status, WNOHANG) == sv->pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		usleep(10000);
	}
	kill(sv->pid, SIGKILL);
	waitpid(sv->pid, &status, 0);
	return -1;
}

/* ---- the client's side ---- */
struct response {
	int status;		/* 0: closed without a response */
	char *text;		/* all of it, NUL-terminated */
	size_t len;
	const char *body;
};

/* A connection from 127.0.0.src (any 127/8 address is this machine's):
 * the server bounds connections per client address */
static int connect_from(int port, int src)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in from = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(0x7f000000 | (unsigned)src) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&from, sizeof(from)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&in, sizeof(in)), 0);
	return fd;
}

static int connect_to(int port)
{
	return connect_from(port, 1);
}

static void read_all(int fd, struct response *r);

/* GET /metrics from 127.0.0.src, answered whole */
static void request_from(int port, int src, struct response *r)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				  "Connection: close\r\n\r\n";
	int fd = connect_from(port, src);

	assert_int_equal(write(fd, req, sizeof(req) - 1), (ssize_t)sizeof(req) - 1);
	read_all(fd, r);
	close(fd);
}

/* Has the server closed fd (end of stream or reset) within ms? */
static bool closed_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(fd, &c, 1) <= 0;
}

/* Read until the server closes fd (at most 10 s). */
static void read_all(int fd, struct response *r)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t cap = 4096;
	ssize_t n;

	r->text = malloc(cap);
	r->len = 0;
	for (;;) {
		if (poll(&p, 1, 10000) != 1)
			fail_msg("no answer within 10 s");
		if (r->len + 1 == cap)
			r->text = realloc(r->text, cap *= 2);
		n = read(fd, r->text + r->len, cap - r->len - 1);
		if (n < 0 && errno == ECONNRESET)
			break;
		assert_true(n >= 0);
		if (!n)
			break;
		r->len += n;
	}
	r->text[r->len] = 0;
	r->status = 0;
	sscanf(r->text, "HTTP/1.1 %d ", &r->status);
	r->body = strstr(r->text, "\r\n\r\n");
	r->body = r->body ? r->body + 4 : r->text + r->len;
}

/* METHOD PATH with extra header lines (each ending in \r\n), on a
 * connection of its own */
static void request(int port, const char *method, const char *path, const char *headers,
		    struct response *r)
{
	char req[1024];
	int fd = connect_to(port), n;

	n = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%sConnection: close\r\n\r\n",
		     method, path, headers ? headers : "");
	assert_int_equal(write(fd, req, n), n);
	read_all(fd, r);
	close(fd);
}

/* A header's value ("" if absent), in a static buffer */
static const char *header(const struct response *r, const char *name)
{
	static char v[256];
	const char *p = r->text;
	size_t n = strlen(name);

	*v = 0;
	while ((p = strstr(p, "\r\n")) && p < r->body - 2) {
		p += 2;
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			sscanf(p + n + 1, " %255[^\r]", v);
			break;
		}
	}
	return v;
}

static void release(struct response *r)
{
	free(r->text);
	r->text = NULL;
}

/* What the server must send after its n-th snapshot */
static char *expected(int n, enum uct_metrics_fmt fmt)
{
	struct uct_view_ctx c = { .snapshot_src = "iter/task", .hooks = "x" };
	char *buf = NULL;
	size_t len;
	FILE *f;

	uct_model_init(&model);
	for (snapshots = 0; snapshots < n;)
		assert_int_equal(fake_snapshot(NULL), 0);
	f = open_memstream(&buf, &len);
	uct_view_metrics(f, &model, &c, fmt);
	fclose(f);
	uct_model_free(&model);
	return buf;
}

/* The value of doc's ucounttop_scrape_duration_seconds */
static double scrape_seconds(const char *doc)
{
	const char *p = strstr(doc, "\nucounttop_scrape_duration_seconds ");
	double v = -1;

	assert_non_null(p);
	assert_int_equal(sscanf(p + 35, "%lf", &v), 1);
	return v;
}

/* got is want, but for the scrape's duration, which no two runs share */
static void same_doc(const char *got, const char *want)
{
	char *a = strdup(got), *b = strdup(want), *d[2] = { a, b };
	int i;

	for (i = 0; i < 2; i++) {
		char *v = strstr(d[i], "\nucounttop_scrape_duration_seconds ");

		assert_non_null(v);
		v += 35;
		memmove(v + 1, strchr(v, '\n'), strlen(strchr(v, '\n')) + 1);
		*v = 'D';
	}
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* ---- tests ---- */

/* Prometheus gets OpenMetrics, others the text format, from one snapshot
 * per interval; HEAD the same headers */
static void test_formats(void **state)
{
	char *text = expected(1, UCT_METRICS_TEXT), *om = expected(1, UCT_METRICS_OPENMETRICS);
	struct server sv;
	struct response r, h;
	double seconds;
	char len[32];
	int i;

	start(&sv, 3600, UCT_LISTEN_TIMEOUT, 0);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(header(&r, "Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
	same_doc(r.body, text);
	assert_non_null(strstr(r.body, "\nucounttop_nproc_processes{ns=\"1\",level=\"0\",kuid=\"0\"} 11\n"));
	seconds = scrape_seconds(r.body);
	release(&r);

	request(sv.port, "GET", "/metrics", "Accept: " PROM_ACCEPT "\r\n", &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(header(&r, "Content-Type"),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
	same_doc(r.body, om);	/* the same snapshot */
	assert_true(scrape_seconds(r.body) == seconds);
	release(&r);

	request(sv.port, "HEAD", "/metrics", NULL, &h);
	assert_int_equal(h.status, 200);
	snprintf(len, sizeof(len), "%zu", strlen(text));
	assert_string_equal(header(&h, "Content-Length"), len);
	assert_string_equal(header(&h, "Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
	assert_string_equal(h.body, "");
	release(&h);

	/* more scrapes within the interval: still the first snapshot */
	for (i = 0; i < 5; i++) {
		request(sv.port, "GET", "/metrics?name[]=x", i & 1 ? "Accept: " PROM_ACCEPT "\r\n" : NULL,
			&r);
		assert_int_equal(r.status, 200);
		same_doc(r.body, i & 1 ? om : text);
		assert_true(scrape_seconds(r.body) == seconds);
		release(&r);
	}
	assert_int_equal(stop_server(&sv), 0);
	free(text);
	free(om);
}

/* With no interval, each scrape takes its own snapshot; the document
 * says how long it took (at least the snapshot's 20 ms) */
static void test_snapshot_per_scrape(void **state)
{
	struct server sv;
	struct response r;
	char want[128];
	int i;

	snapshot_us = 20000;
	start(&sv, 0, UCT_LISTEN_TIMEOUT, 0);
	snapshot_us = 0;
	for (i = 1; i <= 3; i++) {
		request(sv.port, "GET", "/metrics", NULL, &r);
		assert_int_equal(r.status, 200);
		snprintf(want, sizeof(want), "\nucounttop_nproc_processes{ns=\"1\",level=\"0\","
			 "kuid=\"0\"} %d\n", 10 + i);
		assert_non_null(strstr(r.body, want));
		assert_true(scrape_seconds(r.body) >= 0.02);
		assert_true(scrape_seconds(r.body) < 10);
		assert_non_null(strstr(r.body, "\nucounttop_scrape_errors_total 0\n"));
		release(&r);
	}
	assert_int_equal(stop_server(&sv), 0);
}

/* 404 for other paths, 405 (with Allow) for other methods, 500 for a
 * failed snapshot; the next scrape takes a new one; / a landing page */
static void test_statuses(void **state)
{
	static const char *const paths[] = { "/index.html", "/metric", "/metrics/", "/metricsx",
					     "/x/metrics", "//" };
	static const char *const methods[] = { "POST", "PUT", "DELETE", "OPTIONS", "PATCH" };
	static const char post[] = "POST /metrics HTTP/1.1\r\nHost: x\r\n"
				   "Content-Length: 100000000\r\n\r\nabc";
	struct server sv;
	struct response r;
	size_t i;
	int fd;

	start(&sv, 0, UCT_LISTEN_TIMEOUT, 1);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 500);
	assert_string_equal(r.body, "no snapshot: see ucounttop's standard error\n");
	release(&r);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.body, "kuid=\"0\"} 12\n"));
	/* the 500 counted */
	assert_non_null(strstr(r.body, "\nucounttop_scrape_errors_total 1\n"));
	release(&r);
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		request(sv.port, "GET", paths[i], NULL, &r);
		assert_int_equal(r.status, 404);
		assert_string_equal(r.body, "not found: ucounttop serves / and /metrics only\n");
		release(&r);
	}
	/* a person's browser at the address: a page that links /metrics,
	 * no snapshot taken for it */
	request(sv.port, "GET", "/", NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(header(&r, "Content-Type"), "text/html; charset=utf-8");
	assert_non_null(strstr(r.body, "<a href=\"/metrics\">"));
	release(&r);
	request(sv.port, "POST", "/", "Content-Length: 5\r\n", &r);
	assert_int_equal(r.status, 405);
	release(&r);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_non_null(strstr(r.body, "\nucounttop_scrape_errors_total 1\n"));
	assert_non_null(strstr(r.body, "kuid=\"0\"} 13\n"));	/* the third snapshot */
	release(&r);
	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		request(sv.port, methods[i], "/metrics", "Content-Length: 5\r\n", &r);
		assert_int_equal(r.status, 405);
		assert_string_equal(header(&r, "Allow"), "GET, HEAD");
		release(&r);
		request(sv.port, methods[i], "/elsewhere", NULL, &r);
		assert_int_equal(r.status, 404);
		release(&r);
	}
	/* a body nobody reads: answered, and the connection closed */
	fd = connect_to(sv.port);
	assert_int_equal(write(fd, post, sizeof(post) - 1), (ssize_t)sizeof(post) - 1);
	read_all(fd, &r);
	assert_int_equal(r.status, 405);
	release(&r);
	close(fd);
	assert_int_equal(stop_server(&sv), 0);
}

/* A request larger than a connection's memory is refused */
static void test_request_size(void **state)
{
	static const char get[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ";
	size_t n = UCT_LISTEN_CONN_MEM + 4096;
	char *big = malloc(n);
	struct server sv;
	struct response r;
	int fd;

	memset(big, 'a', n);
	start(&sv, 0, UCT_LISTEN_TIMEOUT, 0);
	fd = connect_to(sv.port);
	assert_int_equal(write(fd, get, sizeof(get) - 1), (ssize_t)sizeof(get) - 1);
	/* the server may stop reading, and close, before all is sent */
	if (write(fd, big, n) < 0)
		assert_true(errno == ECONNRESET || errno == EPIPE);
	(void)!write(fd, "\r\n\r\n", 4);
	read_all(fd, &r);
	close(fd);
	assert_true(r.status == 431 || r.status == 413);
	release(&r);
	/* and the server goes on */
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
	free(big);
}

/* One keep-alive request on fd: the response's status, the connection
 * left open */
static int keep_alive(int fd)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	char buf[65536];
	size_t len = 0;
	const char *body, *cl;
	int status = 0;
	ssize_t n;

	assert_int_equal(write(fd, req, sizeof(req) - 1), (ssize_t)sizeof(req) - 1);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 10000) != 1)
			fail_msg("no answer within 10 s");
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		assert_true(n > 0);
		len += n;
		buf[len] = 0;
		body = strstr(buf, "\r\n\r\n");
		cl = strstr(buf, "Content-Length: ");
		if (body && cl && (size_t)(buf + len - body - 4) >= strtoul(cl + 16, NULL, 10))
			break;
	}
	sscanf(buf, "HTTP/1.1 %d ", &status);
	return status;
}

/* A server whose connections may stay idle, headers unsent, for 60 s:
 * the limit tests hold connections open without a request */
static void start_holding(struct server *sv)
{
	start_deadline = 60;
	start(sv, 0, 60, 0);
	start_deadline = 0;
}

/* UCT_LISTEN_MAX_CONN connections at once (from as many addresses as the
 * per-address bound needs): the next one is let in when a keep-alive
 * connection idle after its answer makes room, the ones waiting for
 * their headers left alone */
static void test_connection_limit(void **state)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	int fds[UCT_LISTEN_MAX_CONN], i, next;
	struct server sv;
	struct response r;

	start_holding(&sv);
	for (i = 0; i < UCT_LISTEN_MAX_CONN; i++)
		fds[i] = connect_from(sv.port, 2 + i / UCT_LISTEN_PER_ADDR);
	/* the last one is served: the server has accepted them all; then
	 * it is an idle keep-alive connection */
	assert_int_equal(keep_alive(fds[UCT_LISTEN_MAX_CONN - 1]), 200);
	next = connect_from(sv.port, 50);
	assert_int_equal(write(next, req, sizeof(req) - 1), (ssize_t)sizeof(req) - 1);
	/* closed after its answer (MHD says "Connection: close" with a
	 * document; were it kept alive, idle, it would make room), and next
	 * served at once: the slot freed lets MHD accept again */
	assert_true(closed_within(fds[UCT_LISTEN_MAX_CONN - 1], 5000));
	read_all(next, &r);
	assert_int_equal(r.status, 200);
	release(&r);
	close(next);
	/* the ones waiting for their headers were left alone */
	assert_int_equal(keep_alive(fds[0]), 200);
	for (i = 0; i < UCT_LISTEN_MAX_CONN - 1; i++)
		close(fds[i]);
	assert_int_equal(stop_server(&sv), 0);
}

/* 404 and 405 (and 401: test_tls_auth) say "Connection: close" and
 * close: a client that fails keeps no slot */
static void test_connection_ends(void **state)
{
	static const char *const reqs[] = { "GET /elsewhere", "POST /metrics" };
	struct server sv;
	struct response r;
	int i, fd;

	start(&sv, 0, UCT_LISTEN_TIMEOUT, 0);
	for (i = 0; i < 2; i++) {
		char req[128];
		int n = snprintf(req, sizeof(req), "%s HTTP/1.1\r\nHost: x\r\n\r\n", reqs[i]);

		fd = connect_to(sv.port);
		assert_int_equal(write(fd, req, n), n);
		read_all(fd, &r);	/* to the end: the server closed it */
		assert_int_equal(r.status, i ? 405 : 404);
		assert_string_equal(header(&r, "Connection"), "close");
		release(&r);
		close(fd);
	}
	assert_int_equal(stop_server(&sv), 0);
}

/* UCT_LISTEN_PER_ADDR connections from one address that send nothing:
 * one from another address is served; the next one from that address
 * takes the place of the one that has waited longest for its headers, and
 * so does a request from it, which is answered */
static void test_per_address_limit(void **state)
{
	int fds[UCT_LISTEN_PER_ADDR], i, extra, closed = -1;
	struct server sv;
	struct response r;

	start_holding(&sv);
	for (i = 0; i < UCT_LISTEN_PER_ADDR; i++)
		fds[i] = connect_from(sv.port, 9);
	/* a request from elsewhere, answered after the server has accepted
	 * the 4 (it accepts in the order they came) */
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	release(&r);
	/* a fifth from that address takes the place of the one that has
	 * waited longest for its headers: the first */
	extra = connect_from(sv.port, 9);
	for (i = 0; i < UCT_LISTEN_PER_ADDR && closed < 0; i++)
		if (closed_within(fds[i], i ? 0 : 10000))
			closed = i;
	assert_int_equal(closed, 0);
	assert_false(closed_within(extra, 200));
	/* and a request from that address is answered the same way */
	request_from(sv.port, 9, &r);
	assert_int_equal(r.status, 200);
	release(&r);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	release(&r);
	for (i = 0; i < UCT_LISTEN_PER_ADDR; i++)
		close(fds[i]);
	close(extra);
	assert_int_equal(stop_server(&sv), 0);
}

/* A client that trickles its headers, a line every 200 ms (never idle for
 * the 10 s timeout), is closed at the header deadline (1 s here): within
 * 8 s, the bound of this test */
static void test_header_deadline(void **state)
{
	static const char line[] = "X-Slow: a\r\n";
	struct server sv;
	bool closed = false;
	int fd, i;

	start_deadline = 1;
	start(&sv, 0, 10, 0);
	start_deadline = 0;
	fd = connect_to(sv.port);
	assert_int_equal(write(fd, "GET /metrics HTTP/1.1\r\n", 23), 23);
	for (i = 0; i < 40 && !closed; i++) {
		closed = closed_within(fd, 200);
		if (!closed && write(fd, line, sizeof(line) - 1) < 0)
			closed = true;
	}
	assert_true(closed);
	close(fd);
	assert_int_equal(stop_server(&sv), 0);
}

/* A client that asks for a document and does not take it (its receive
 * buffer as small as can be) is cut at the send deadline (1 s here): read
 * 3 s later, the answer stops short of its Content-Length; a scrape from
 * elsewhere is answered whole meanwhile */
static void test_send_deadline(void **state)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct server sv;
	struct response r;
	int fd, one = 1;
	long want;

	big_doc = true;
	start_send_deadline = 1;
	start(&sv, 0, 10, 0);
	start_send_deadline = 0;
	big_doc = false;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one)), 0);
	in.sin_port = htons(sv.port);
	assert_int_equal(connect(fd, (struct sockaddr *)&in, sizeof(in)), 0);
	assert_int_equal(write(fd, req, sizeof(req) - 1), (ssize_t)sizeof(req) - 1);
	request(sv.port, "GET", "/metrics", NULL, &r);
	assert_int_equal(r.status, 200);
	want = atol(header(&r, "Content-Length"));
	assert_true(want > 200000);
	assert_int_equal((long)(r.len - (size_t)(r.body - r.text)), want);
	release(&r);
	sleep(3);
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 200);
	assert_true((long)(r.len - (size_t)(r.body - r.text)) < want);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
}

/* An idle connection is closed after the timeout; SIGTERM ends the server
 * with a connection open */
static void test_idle_and_sigterm(void **state)
{
	struct server sv;
	struct response r;
	int fd;

	start(&sv, 0, 1, 0);
	fd = connect_to(sv.port);
	read_all(fd, &r);		/* fails the test after 10 s */
	assert_int_equal(r.len, 0);
	release(&r);
	close(fd);
	fd = connect_to(sv.port);
	assert_int_equal(write(fd, "GET /met", 8), 8);
	assert_int_equal(stop_server(&sv), 0);
	close(fd);
}

/* What binding refuses, named with the address */
static void test_bind_errors(void **state)
{
	struct uct_listen_addr a = { .family = AF_INET, .addr = { 127, 0, 0, 1 } };
	struct uct_listen s, t;
	struct sockaddr_in in;
	socklen_t sl = sizeof(in);
	char msg[256], want[64];

	assert_int_equal(uct_listen_open(&s, &a, NULL, msg, sizeof(msg)), UCT_EXIT_OK);
	assert_int_equal(getsockname(s.fd, (struct sockaddr *)&in, &sl), 0);
	a.port = ntohs(in.sin_port);
	assert_int_equal(uct_listen_open(&t, &a, NULL, msg, sizeof(msg)), UCT_EXIT_FAIL);
	snprintf(want, sizeof(want), "--listen 127.0.0.1:%u: cannot bind: ", a.port);
	assert_non_null(strstr(msg, want));
	assert_non_null(strstr(msg, strerror(EADDRINUSE)));
	assert_int_equal(t.fd, -1);
	uct_listen_close(&t);
	uct_listen_close(&s);
	assert_int_equal(s.fd, -1);

	/* every address (:PORT): IPv4's loopback reaches it too */
	memset(&a, 0, sizeof(a));
	a.family = AF_INET6;
	a.any = true;
	if (uct_listen_open(&s, &a, NULL, msg, sizeof(msg)) == UCT_EXIT_OK) {
		struct sockaddr_in6 in6;
		int fd;

		sl = sizeof(in6);
		assert_int_equal(getsockname(s.fd, (struct sockaddr *)&in6, &sl), 0);
		snprintf(want, sizeof(want), "[::]:%u", ntohs(in6.sin6_port));
		assert_string_equal(s.name, want);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		in = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = in6.sin6_port,
					   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		assert_int_equal(connect(fd, (struct sockaddr *)&in, sizeof(in)), 0);
		close(fd);
		uct_listen_close(&s);
	} else {
		/* a host without IPv6: IPv4's every address */
		assert_non_null(strstr(msg, "0.0.0.0:"));
	}
	memset(&a, 0, sizeof(a));
	a.family = AF_INET;

	/* TEST-NET-1: no interface has it */
	memcpy(a.addr, (unsigned char[]){ 192, 0, 2, 1 }, 4);
	assert_int_equal(uct_listen_open(&t, &a, NULL, msg, sizeof(msg)), UCT_EXIT_FAIL);
	assert_non_null(strstr(msg, "--listen 192.0.2.1:"));
	assert_non_null(strstr(msg, "no interface of this machine has that address"));
	uct_listen_close(&t);
}

/* ---- --web.config.file: TLS and basic auth ---- */

/* The fixtures' folder: a self-signed certificate for 127.0.0.1 and its
 * key, another key, configurations naming them */
static char tls_dir[] = "/tmp/test_listen.XXXXXX";
static char web_yml[300], crt[300];

static void put(const char *name, const char *text)
{
	put_in(tls_dir, name, text);
}

static int make_tls_fixtures(void **state)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE], cmd[2048], yml[512];
	struct crypt_data cd = { 0 };
	const char *hash;

	if (!mkdtemp(tls_dir))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
		 "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -days 2 "
		 "-keyout server.key -out server.crt 2>openssl.err && "
		 "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out other.key "
		 "2>>openssl.err && "
		 "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
		 "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -days 2 "
		 "-keyout new.key -out new.crt 2>>openssl.err && "
		 "chmod 600 server.key other.key new.key", tls_dir);
	if (system(cmd)) {
		fprintf(stderr, "# openssl failed (see %s/openssl.err)\n", tls_dir);
		return -1;
	}
	/* alice's password is s3cret; cost 4, the lowest: fast tests */
	if (!crypt_gensalt_rn("$2b$", 4, NULL, 0, setting, sizeof(setting)))
		return -1;
	hash = crypt_rn("s3cret", setting, &cd, sizeof(cd));
	if (!hash)
		return -1;
	/* relative paths: the configuration's folder */
	snprintf(yml, sizeof(yml), "tls_server_config:\n  cert_file: server.crt\n"
		 "  key_file: server.key\nbasic_auth_users:\n  alice: %s\n", hash);
	put("web.yml", yml);
	/* plain HTTP, alice's hash at cost 12, the highest allowed (a
	 * quarter second or so a bcrypt): logins that wait for the hasher
	 * while scrapes are answered */
	if (!crypt_gensalt_rn("$2b$", 12, NULL, 0, setting, sizeof(setting)))
		return -1;
	hash = crypt_rn("s3cret", setting, &cd, sizeof(cd));
	if (!hash)
		return -1;
	snprintf(yml, sizeof(yml), "basic_auth_users:\n  alice: %s\n", hash);
	put("slow.yml", yml);
	put("mismatch.yml", "tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n");
	snprintf(web_yml, sizeof(web_yml), "%s/web.yml", tls_dir);
	snprintf(crt, sizeof(crt), "%s/server.crt", tls_dir);
	snprintf(server_log, sizeof(server_log), "%s/server.log", tls_dir);
	return 0;
}

static int remove_tls_fixtures(void **state)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tls_dir);
	return system(cmd);
}

/* Run argv (argv[0] found in PATH): its exit status, what it wrote to its
 * standard output and error in out (cut at cap - 1 bytes) */
static int run(char *const argv[], char *out, size_t cap)
{
	char scratch[4096];
	size_t n = 0;
	ssize_t r;
	int p[2], status;
	pid_t pid;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		r = n + 1 < cap ? read(p[0], out + n, cap - 1 - n) : read(p[0], scratch, sizeof(scratch));
		if (r <= 0)
			break;
		if (n + 1 < cap)
			n += r;
	}
	out[n] = 0;
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* curl -sS --include URL with more options: its exit status; r holds what
 * it printed (the status line, headers and body when it got an answer) */
static int curl(struct response *r, const char *url, const char *o1, const char *o2,
		const char *o3, const char *o4)
{
	char *argv[] = { "curl", "-sS", "--include", "--max-time", "10", (char *)url,
			 (char *)o1, (char *)o2, (char *)o3, (char *)o4, NULL };
	size_t cap = 1 << 16;
	int rc;

	r->text = malloc(cap);
	rc = run(argv, r->text, cap);
	r->len = strlen(r->text);
	r->status = 0;
	sscanf(r->text, "HTTP/1.1 %d ", &r->status);
	r->body = strstr(r->text, "\r\n\r\n");
	r->body = r->body ? r->body + 4 : r->text + r->len;
	return rc;
}

/* The whole exchange, by curl and by Python: only the right password over
 * TLS with the certificate trusted gets the metrics */
static void test_tls_auth(void **state)
{
	char *text = expected(1, UCT_METRICS_TEXT), url[128], want[256], log[1024];
	struct server sv;
	struct response r;
	int rc;

	start_with(&sv, web_yml, 0, 0, 3600, UCT_LISTEN_TIMEOUT);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);

	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	assert_string_equal(header(&r, "Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
	same_doc(r.body, text);
	release(&r);

	/* a wrong password, a wrong user, none: 401, asking for basic auth */
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret2"), 0);
	assert_int_equal(r.status, 401);
	assert_string_equal(header(&r, "WWW-Authenticate"), "Basic realm=\"ucounttop\"");
	assert_null(strstr(r.body, "ucounttop_"));
	release(&r);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "bob:s3cret"), 0);
	assert_int_equal(r.status, 401);
	release(&r);
	assert_int_equal(curl(&r, url, "--cacert", crt, NULL, NULL), 0);
	assert_int_equal(r.status, 401);
	assert_string_equal(header(&r, "WWW-Authenticate"), "Basic realm=\"ucounttop\"");
	assert_string_equal(r.body, "unauthorized: a user and password are needed\n");
	release(&r);
	/* every path and method asks: a stranger cannot tell 404 from 405 */
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/elsewhere", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, NULL, NULL), 0);
	assert_int_equal(r.status, 401);
	release(&r);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 404);
	release(&r);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-XPOST", NULL), 0);
	assert_int_equal(r.status, 401);
	release(&r);

	/* the certificate not trusted: curl refuses it (60: the peer's
	 * certificate cannot be authenticated) */
	rc = curl(&r, url, "-u", "alice:s3cret", NULL, NULL);
	assert_int_equal(rc, 60);
	assert_null(strstr(r.text, "ucounttop_"));
	release(&r);
	/* plain HTTP to the TLS port: no answer, no metrics in clear */
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/metrics", sv.port);
	rc = curl(&r, url, "-u", "alice:s3cret", NULL, NULL);
	assert_int_not_equal(rc, 0);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.text, "ucounttop_"));
	release(&r);

	/* Python's urllib, verifying the certificate against it */
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	{
		char *argv[] = { "/usr/bin/python3", "-c",
			"import base64, ssl, sys, urllib.request\n"
			"ctx = ssl.create_default_context(cafile=sys.argv[1])\n"
			"req = urllib.request.Request(sys.argv[2], headers={'Authorization': 'Basic '"
			" + base64.b64encode(b'alice:s3cret').decode()})\n"
			"with urllib.request.urlopen(req, context=ctx, timeout=10) as resp:\n"
			"    sys.stdout.write('%d\\n' % resp.status + resp.read().decode())\n",
			crt, url, NULL };
		char out[1 << 16];

		assert_int_equal(run(argv, out, sizeof(out)), 0);
		assert_int_equal(strncmp(out, "200\n", 4), 0);
		same_doc(out + 4, text);
	}
	assert_int_equal(stop_server(&sv), 0);

	/* the startup line says https and basic auth */
	{
		FILE *f = fopen(server_log, "r");
		size_t n;

		assert_non_null(f);
		n = fread(log, 1, sizeof(log) - 1, f);
		log[n] = 0;
		fclose(f);
	}
	snprintf(want, sizeof(want), "ucounttop: serving https://127.0.0.1:%d/metrics (TLS, basic "
		 "auth, 1 user; a snapshot per scrape", sv.port);
	if (!strstr(log, want))
		fail_msg("no '%s' in:\n%s", want, log);
	free(text);
}

/* How many times the server's log says needle, waiting (at most 10 s)
 * for it to say so want times */
static int log_says(const char *needle, int want)
{
	char log[8192], *p;
	int i, n = 0;

	for (i = 0; i < 1000; i++) {
		FILE *f = fopen(server_log, "r");
		size_t len = f ? fread(log, 1, sizeof(log) - 1, f) : 0;

		if (f)
			fclose(f);
		log[len] = 0;
		for (n = 0, p = log; (p = strstr(p, needle)); p++)
			n++;
		if (n >= want)
			break;
		usleep(10000);
	}
	return n;
}

/* SIGHUP reads the configuration, certificate and key again: served from
 * then on; a bad configuration, or one turning TLS off, keeps the one in
 * use */
static void test_tls_reload(void **state)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE], yml[512], path[300], url[128], new_crt[300];
	struct crypt_data cd = { 0 };
	struct server sv;
	struct response r;
	const char *bob;
	FILE *f;

	snprintf(path, sizeof(path), "%s/reload.yml", tls_dir);
	snprintf(new_crt, sizeof(new_crt), "%s/new.crt", tls_dir);
	assert_non_null(crypt_gensalt_rn("$2b$", 4, NULL, 0, setting, sizeof(setting)));
	bob = crypt_rn("b0b", setting, &cd, sizeof(cd));
	assert_non_null(bob);
	f = fopen(web_yml, "r");
	assert_non_null(f);
	yml[fread(yml, 1, sizeof(yml) - 1, f)] = 0;
	fclose(f);
	put("reload.yml", yml);
	start_with(&sv, path, 0, 0, 3600, UCT_LISTEN_TIMEOUT);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	release(&r);

	/* a new pair and a new user */
	snprintf(yml, sizeof(yml), "tls_server_config:\n  cert_file: new.crt\n"
		 "  key_file: new.key\nbasic_auth_users:\n  bob: %s\n", bob);
	put("reload.yml", yml);
	kill(sv.pid, SIGHUP);
	assert_int_equal(log_says("read again (TLS, 1 user)", 1), 1);
	assert_int_equal(curl(&r, url, "--cacert", new_crt, "-u", "bob:b0b"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(curl(&r, url, "--cacert", new_crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 401);
	release(&r);
	/* the old certificate is no longer the server's */
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "bob:b0b"), 60);
	release(&r);

	/* a bad one, then one without TLS: the new pair and bob stay */
	put("reload.yml", "foo: 1\n");
	kill(sv.pid, SIGHUP);
	assert_int_equal(log_says("the configuration in use stays", 1), 1);
	snprintf(yml, sizeof(yml), "basic_auth_users:\n  bob: %s\n", bob);
	put("reload.yml", yml);
	kill(sv.pid, SIGHUP);
	assert_int_equal(log_says("a reload cannot turn TLS off (restart ucounttop)", 1), 1);
	assert_int_equal(log_says("the configuration in use stays", 2), 2);
	assert_int_equal(curl(&r, url, "--cacert", new_crt, "-u", "bob:b0b"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
}

/* Failed logins: the first costs a bcrypt and starts its client's
 * backoff (30 s here), during which the next ones are answered 401
 * without one, while a password that verified before still gets in */
static void test_login_backoff(void **state)
{
	struct server sv;
	struct response r;
	char url[128];
	int i;

	start_with(&sv, web_yml, 0, 30, 3600, UCT_LISTEN_TIMEOUT);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	for (i = 0; i < 3; i++) {
		assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:wrong"), 0);
		assert_int_equal(r.status, 401);
		assert_string_equal(header(&r, "Connection"), "close");
		release(&r);
	}
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
	/* one bcrypt failed, once: the two after it ran none */
	assert_int_equal(log_says("ucounttop: http: failed login 1 from 127.0.0.1: no bcrypt for "
				  "it for 30 s", 1), 1);
	assert_int_equal(log_says("failed login 2", 0), 0);
}

/* text's client, through a sockaddr of its family */
static void key(const char *text, struct uct_listen_client *c)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };

	if (inet_pton(AF_INET, text, &in.sin_addr) == 1) {
		uct_listen_client_of((struct sockaddr *)&in, c);
		return;
	}
	assert_int_equal(inet_pton(AF_INET6, text, &in6.sin6_addr), 1);
	uct_listen_client_of((struct sockaddr *)&in6, c);
}

/* Who counts as one client: an IPv4 address, an IPv6 /64, an
 * IPv4-mapped address as its IPv4 address */
static void test_client_keys(void **state)
{
	const char *same[][2] = {
		{ "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff" },
		{ "fe80::1", "fe80::2" },
		{ "::ffff:192.0.2.7", "192.0.2.7" },
	};
	const char *other[][2] = {
		{ "2001:db8:1:2::1", "2001:db8:1:3::1" },
		{ "192.0.2.7", "192.0.2.8" },
		{ "::ffff:192.0.2.7", "::192.0.2.7" },	/* IPv4-compatible: an IPv6 one */
		{ "::", "0.0.0.0" },
	};
	struct uct_listen_client a, b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(same); i++) {
		key(same[i][0], &a);
		key(same[i][1], &b);
		if (!uct_listen_same_client(&a, &b))
			fail_msg("%s and %s should be one client", same[i][0], same[i][1]);
	}
	for (i = 0; i < ARRAY_SIZE(other); i++) {
		key(other[i][0], &a);
		key(other[i][1], &b);
		if (uct_listen_same_client(&a, &b))
			fail_msg("%s and %s should be two clients", other[i][0], other[i][1]);
	}
}

/* GET /metrics from 127.0.0.src with alice's password pass, not read */
static int login_from(int port, int src, const char *pass)
{
	char req[256], b64[64];
	int fd = connect_from(port, src), n;

	/* "alice:" + pass, base64: the two passwords used here */
	snprintf(b64, sizeof(b64), "%s", !strcmp(pass, "s3cret") ? "YWxpY2U6czNjcmV0" :
					 "YWxpY2U6d3Jvbmc=");	/* alice:wrong */
	n = snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
		     "Authorization: Basic %s\r\nConnection: close\r\n\r\n", b64);
	assert_int_equal(write(fd, req, n), n);
	return fd;
}

/*
 * bcrypt runs beside the serving thread: while UCT_HASHER_JOBS wrong
 * logins from as many clients wait for theirs (cost 12: a quarter second
 * or so each, two at a time), a scrape with the password that verified before
 * is answered and most of them are not yet; one more client, or a second
 * login from a client already waiting, gets 503 at once; each waiting
 * login is answered 401 in the end; SIGTERM with logins waiting ends the
 * server cleanly (none left suspended)
 */
static void test_logins_beside_scrapes(void **state)
{
	int bad[UCT_HASHER_JOBS], fd, i, waiting = 0;
	struct server sv;
	struct response r;
	char path[320];

	snprintf(path, sizeof(path), "%s/slow.yml", tls_dir);
	start_with(&sv, path, 0, 0, 3600, UCT_LISTEN_TIMEOUT);
	fd = login_from(sv.port, 1, "s3cret");
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 200);
	release(&r);
	for (i = 0; i < UCT_HASHER_JOBS; i++)
		bad[i] = login_from(sv.port, 20 + i, "wrong");
	fd = login_from(sv.port, 1, "s3cret");
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 200);
	release(&r);
	for (i = 0; i < UCT_HASHER_JOBS; i++) {
		struct pollfd p = { .fd = bad[i], .events = POLLIN };

		waiting += poll(&p, 1, 0) == 0;
	}
	assert_true(waiting >= UCT_HASHER_JOBS - 2);
	fd = login_from(sv.port, 40, "wrong");
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 503);
	assert_string_equal(header(&r, "Retry-After"), "1");
	assert_string_equal(header(&r, "Connection"), "close");
	release(&r);
	fd = login_from(sv.port, 20, "wrong");
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 503);
	release(&r);
	for (i = 0; i < UCT_HASHER_JOBS; i++) {
		read_all(bad[i], &r);
		close(bad[i]);
		assert_int_equal(r.status, 401);
		release(&r);
	}
	/* two more waiting, and SIGTERM */
	bad[0] = login_from(sv.port, 41, "wrong");
	bad[1] = login_from(sv.port, 42, "wrong");
	fd = login_from(sv.port, 1, "s3cret");
	read_all(fd, &r);
	close(fd);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
	close(bad[0]);
	close(bad[1]);
}

/* A client that connects and never starts its TLS handshake is cut at the
 * header deadline (1 s), long before the idle timeout (10 s) */
static void test_tls_header_deadline(void **state)
{
	struct server sv;
	struct response r;
	char url[128];
	int fd;

	start_with(&sv, web_yml, 1, 0, 0, 10);
	fd = connect_to(sv.port);
	assert_true(closed_within(fd, 5000));
	close(fd);
	/* and the server goes on */
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	assert_int_equal(stop_server(&sv), 0);
}

/* UCT_LISTEN_PER_ADDR connections from one address, handshakes not begun:
 * the next one from it takes the place of the first, a client from
 * elsewhere is served */
static void test_tls_per_address_limit(void **state)
{
	int fds[UCT_LISTEN_PER_ADDR], i, extra;
	struct server sv;
	struct response r;
	char url[128];

	start_web = web_yml;
	start_holding(&sv);
	start_web = NULL;
	for (i = 0; i < UCT_LISTEN_PER_ADDR; i++)
		fds[i] = connect_from(sv.port, 9);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", sv.port);
	assert_int_equal(curl(&r, url, "--cacert", crt, "-u", "alice:s3cret"), 0);
	assert_int_equal(r.status, 200);
	release(&r);
	/* the fifth takes the place of the first, which never began its
	 * handshake */
	extra = connect_from(sv.port, 9);
	assert_true(closed_within(fds[0], 10000));
	assert_false(closed_within(extra, 200));
	close(extra);
	for (i = 0; i < UCT_LISTEN_PER_ADDR; i++)
		close(fds[i]);
	assert_int_equal(stop_server(&sv), 0);
}

/* What opening refuses in a configuration, before binding anything: a key
 * that is not the certificate's, a file that is not there */
static void test_web_config_refused(void **state)
{
	struct uct_listen_addr a = { .family = AF_INET, .addr = { 127, 0, 0, 1 } };
	struct uct_listen s;
	char path[320], msg[1024], want[1024];

	snprintf(path, sizeof(path), "%s/mismatch.yml", tls_dir);
	assert_int_equal(uct_listen_open(&s, &a, path, msg, sizeof(msg)), UCT_EXIT_USAGE);
	snprintf(want, sizeof(want), "--web.config.file %s: cert_file %s/server.crt and key_file "
		 "%s/other.key: no TLS server with them: ", path, tls_dir, tls_dir);
	if (strncmp(msg, want, strlen(want)))
		fail_msg("got  %s\nwant %s...", msg, want);
	assert_int_equal(s.fd, -1);
	assert_null(s.web.cert);
	uct_listen_close(&s);

	snprintf(path, sizeof(path), "%s/none.yml", tls_dir);
	assert_int_equal(uct_listen_open(&s, &a, path, msg, sizeof(msg)), UCT_EXIT_USAGE);
	snprintf(want, sizeof(want), "--web.config.file %s: No such file or directory", path);
	assert_string_equal(msg, want);
	assert_int_equal(s.fd, -1);
	uct_listen_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_formats, teardown),
		cmocka_unit_test_teardown(test_snapshot_per_scrape, teardown),
		cmocka_unit_test_teardown(test_statuses, teardown),
		cmocka_unit_test_teardown(test_request_size, teardown),
		cmocka_unit_test_teardown(test_connection_limit, teardown),
		cmocka_unit_test_teardown(test_connection_ends, teardown),
		cmocka_unit_test(test_client_keys),
		cmocka_unit_test_teardown(test_per_address_limit, teardown),
		cmocka_unit_test_teardown(test_header_deadline, teardown),
		cmocka_unit_test_teardown(test_send_deadline, teardown),
		cmocka_unit_test_teardown(test_idle_and_sigterm, teardown),
		cmocka_unit_test_teardown(test_bind_errors, teardown),
		cmocka_unit_test_teardown(test_tls_auth, teardown),
		cmocka_unit_test_teardown(test_tls_reload, teardown),
		cmocka_unit_test_teardown(test_login_backoff, teardown),
		cmocka_unit_test_teardown(test_logins_beside_scrapes, teardown),
		cmocka_unit_test_teardown(test_tls_header_deadline, teardown),
		cmocka_unit_test_teardown(test_tls_per_address_limit, teardown),
		cmocka_unit_test_teardown(test_web_config_refused, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests_name("listen", tests, make_tls_fixtures, remove_tls_fixtures);
}
