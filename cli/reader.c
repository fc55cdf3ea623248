// SPDX-License-Identifier: GPL-2.0
/* reader.c - the live view's and --listen's privileged half (reader.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "loader_internal.h"
#include "outfile.h"
#include "privs.h"
#include "reader.h"

enum { CALL_OUTPUT = 'O', CALL_WEB = 'W' };

#define REPLY_MAX	(4u * UCT_WEB_FILE_MAX)	/* a configuration, its certificate and key */
#define MSG_MAX		1024
#define OUTPUT_DEADLINE	30.0	/* writing a document to a local file */

/* The reader's copy of the configuration (the fork's, fixed) */
static struct uct_reader_cfg cfg;

/* An answer: rc (0, or an exit code), then a message or the payload */
static size_t say(char *reply, int32_t rc, const char *msg)
{
	size_t n = strnlen(msg, MSG_MAX);

	memcpy(reply, &rc, sizeof(rc));
	memcpy(reply + sizeof(rc), msg, n);
	return sizeof(rc) + n;
}

static size_t write_output(int fd, char *reply)
{
	struct uct_outfile out;
	char msg[MSG_MAX], buf[65536];
	ssize_t n;
	int ok = 1;

	if (!cfg.output_file || fd < 0)
		return say(reply, UCT_EXIT_FAIL, "no -o file");
	if (uct_outfile_open(&out, cfg.output_file, msg, sizeof(msg)))
		return say(reply, UCT_EXIT_FAIL, msg);
	if (lseek(fd, 0, SEEK_SET) < 0)
		ok = 0;
	while (ok && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, (size_t)n, out.f) != (size_t)n)
			ok = 0;
	}
	if (uct_outfile_commit(&out, ok) || !ok) {
		snprintf(msg, sizeof(msg), "%s", strerror(errno ? errno : EIO));
		return say(reply, UCT_EXIT_FAIL, msg);
	}
	return say(reply, 0, "");
}

static size_t load_web(char *reply, size_t max)
{
	struct uct_web_config w;
	char msg[MSG_MAX];
	int32_t rc = 0;
	size_t n;

	if (!cfg.web_config)
		return say(reply, UCT_EXIT_USAGE, "no --web.config.file");
	rc = uct_web_config_load(&w, cfg.web_config, msg, sizeof(msg));
	if (rc)
		return say(reply, rc, msg);
	n = uct_web_config_pack(&w, reply + sizeof(rc), max - sizeof(rc));
	uct_web_config_free(&w);
	if (!n)
		return say(reply, UCT_EXIT_USAGE, "the configuration and its files are too large");
	memcpy(reply, &rc, sizeof(rc));
	return sizeof(rc) + n;
}

/* In the reader: one call from the main process */
static size_t serve_call(void *arg, const void *req, size_t len, int fd, void *reply, size_t max)
{
	char op = len == 1 ? *(const char *)req : 0;
	size_t n;

	if (op == CALL_OUTPUT)
		n = write_output(fd, reply);
	else if (op == CALL_WEB)
		n = load_web(reply, max);
	else
		n = say(reply, UCT_EXIT_FAIL, "unknown call");
	if (fd >= 0)
		close(fd);
	return n;
}

/* In the reader, first: keep what reading needs */
static int enter(void *arg)
{
	char msg[256];

	/* the host's cgroup namespace while CAP_SYS_ADMIN is ours: a pod's
	 * own would name no container */
	if (uct_privread_host_cgroupns(cfg.privread, msg, sizeof(msg)) < 0)
		fprintf(stderr, "ucounttop: the reader: %s\n", msg);
	/* a kernel without seccomp filters: the main process says so */
	if (uct_drop_privileges(uct_keep_top, msg, sizeof(msg)) ||
	    uct_sandbox(UCT_ROLE_READER, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "ucounttop: the reader: %s\n", msg);
		return -1;
	}
	return 0;
}

/* In the reader, last: the main process is gone */
static void at_exit(void *arg)
{
	if (cfg.loader)
		uct_unpin_all(cfg.loader);
}

int uct_reader_start(struct uct_reader *r, const struct uct_reader_cfg *c, char *msg, size_t len)
{
	static struct uct_spawner_service svc = {
		.name = "ucounttop-read", .helper_name = "ucounttop-help",
		.serve = uct_privread_serve,
		.req_max = sizeof(struct uct_privread_req), .reply_max = UCT_PRIVREAD_REPLY_MAX,
		.call = serve_call, .call_max = 1, .call_reply_max = REPLY_MAX,
		.enter = enter, .at_exit = at_exit,
	};
	int err;

	cfg = *c;
	svc.serve_arg = (void *)c->privread;
	r->reply = malloc(REPLY_MAX + 1);
	if (!r->reply) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	err = uct_spawner_start(&r->sp, &svc, NULL, 0);
	if (err) {
		snprintf(msg, len, "starting the reader: %s", strerror(-err));
		free(r->reply);
		r->reply = NULL;
		return -1;
	}
	return 0;
}

/* A call and its answer: rc, and the bytes after it (*body, *n) */
static int32_t call(struct uct_reader *r, char op, int fd, double deadline, const char **body,
		    size_t *n)
{
	int32_t rc;
	size_t got;
	int err;

	err = uct_spawner_call(&r->sp, &op, 1, fd, r->reply, &got, deadline);
	if (err || got < sizeof(rc)) {
		*body = err ? strerror(-err) : "a short answer";
		*n = strlen(*body);
		return UCT_EXIT_FAIL;
	}
	memcpy(&rc, r->reply, sizeof(rc));
	r->reply[got] = 0;
	*body = r->reply + sizeof(rc);
	*n = got - sizeof(rc);
	return rc;
}

int uct_reader_write_output(struct uct_reader *r, int memfd, char *msg, size_t len)
{
	const char *body;
	size_t n;

	if (call(r, CALL_OUTPUT, memfd, OUTPUT_DEADLINE, &body, &n)) {
		snprintf(msg, len, "%.*s", (int)n, body);
		return -1;
	}
	return 0;
}

int uct_reader_load_web(void *arg, struct uct_web_config *w, const char *path, char *msg,
			size_t len)
{
	struct uct_reader *r = arg;
	const char *body;
	size_t n;
	int32_t rc = call(r, CALL_WEB, -1, OUTPUT_DEADLINE, &body, &n);

	memset(w, 0, sizeof(*w));
	if (rc) {
		snprintf(msg, len, "%.*s", (int)n, body);
		return rc;
	}
	if (uct_web_config_unpack(w, body, n)) {
		snprintf(msg, len, "--web.config.file %s: the reader's answer is not a "
			 "configuration", path);
		return UCT_EXIT_FAIL;
	}
	explicit_bzero(r->reply, sizeof(rc) + n);
	return 0;
}

void uct_reader_stop(struct uct_reader *r)
{
	uct_spawner_stop(&r->sp, 5.0);
	free(r->reply);
	r->reply = NULL;
}
