// SPDX-License-Identifier: GPL-2.0
/*
 * ucounttop - show per-user-namespace rlimit accounting (struct ucounts).
 *
 * main(): options, checks with clear messages and exit codes, then the
 * refresh loop (snapshot -> model -> view), the HTTP endpoint (--listen:
 * a snapshot per scrape) or `trace`. See --help.
 */
#include <errno.h>
#include <malloc.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "clock.h"
#include "fmt.h"
#include "listen.h"
#include "loader.h"
#include "model.h"
#include "outfile.h"
#include "privs.h"
#include "proc_limits.h"
#include "pwreader.h"
#include "reader.h"
#include "opts.h"
#include "sleep.h"
#include "trace.h"
#include "view_tty.h"
#include "views.h"

static volatile sig_atomic_t stop;
static volatile sig_atomic_t winch;

static void on_stop(int sig)
{
	stop = 1;
}

static void on_winch(int sig)
{
	winch = 1;
}

/* --listen: SIGHUP reads the web configuration again */
static volatile sig_atomic_t reload;

static void on_reload(int sig)
{
	reload = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { 0 };

	/* no SA_RESTART: poll/sleep return early so we exit promptly */
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Render one iteration to f in the chosen non-tty format. */
static void render(FILE *f, const struct uct_opts *o, struct uct_model *m,
		   struct uct_view_ctx *c)
{
	switch (o->output) {
	case UCT_OUT_JSON:
		uct_view_json(f, m, c);
		break;
	case UCT_OUT_OPENMETRICS:
		uct_view_openmetrics(f, m, c);
		break;
	case UCT_OUT_PROMETHEUS:
		uct_view_metrics(f, m, c, UCT_METRICS_TEXT);
		break;
	default:
		uct_view_batch(f, m, c);
	}
}

/* The live view's two halves (reader.h): the main process's helpers
 * come from the reader, which writes -o's file */
struct top_env {
	struct uct_loader *l;
	struct uct_reader *reader;
	struct uct_privread pr;
};

/* -o FILE: the view rendered into a memfd, which the reader writes into
 * a new file renamed over FILE (outfile.h) */
static int render_to_file(const struct uct_opts *o, struct top_env *env, struct uct_model *m,
			  struct uct_view_ctx *c)
{
	char msg[1024];
	int fd = memfd_create("ucounttop-o", MFD_CLOEXEC), copy = fd < 0 ? -1 : dup(fd);
	FILE *f = copy < 0 ? NULL : fdopen(copy, "w");
	int err = 0;

	if (!f) {
		snprintf(msg, sizeof(msg), "a memfd for the document: %s", strerror(errno));
		err = -1;
	} else {
		render(f, o, m, c);
		if (fclose(f)) {
			snprintf(msg, sizeof(msg), "rendering: %s", strerror(errno));
			err = -1;
		}
		f = NULL;
		copy = -1;
	}
	if (!err)
		err = uct_reader_write_output(env->reader, fd, msg, sizeof(msg));
	if (copy >= 0)
		close(copy);
	if (fd >= 0)
		close(fd);
	if (err)
		fprintf(stderr, "ucounttop: -o %s: %s\n", o->output_file, msg);
	return err;
}

/* One refresh: snapshot + stats into the model. */
static int refresh(struct top_env *env, struct uct_model *m, struct uct_view_ctx *c)
{
	struct uct_loader *l = env->l;
	const struct uct_rec *recs;
	const struct uct_stat_kv *kv;
	size_t nrec, nkv;
	int err;

	err = uct_loader_snapshot(l, &recs, &nrec);
	if (err) {
		fprintf(stderr, "ucounttop: reading the snapshot iterator: %s\n", strerror(-err));
		return err;
	}
	err = uct_loader_stats(l, &kv, &nkv);
	if (err) {
		fprintf(stderr, "ucounttop: reading the stats map: %s\n", strerror(-err));
		return err;
	}
	uct_loader_counters(l, m->counters);
	clock_gettime(CLOCK_REALTIME, &c->wall);
	/* --pid: where the process is now (it may have changed its uid) */
	if (m->pid_filter && uct_privread_task_row(&env->pr, m->pid_filter, &m->pid_ns, &m->pid_uid))
		m->pid_ns = 0;
	err = uct_model_update(m, recs, nrec, kv, nkv, c->wall.tv_sec + c->wall.tv_nsec / 1e9);
	if (!err) {
		/* the stats of freed objects are gone; these totals are not */
		uct_loader_denials(l, m->total_denials);
		const struct uct_tlim *iter_tl;
		struct uct_task_limits *proc_tl = NULL;
		size_t ntl = 0;

		const struct uct_cgdeny_kv *cgd = NULL;
		size_t ncgd = 0;

		/* refusals by cgroup: without them, shares show none */
		if (uct_loader_cg_denials(l, &cgd, &ncgd))
			ncgd = 0;
		uct_model_set_cg_denials(m, cgd, ncgd);
		/* without ucounts_free, the entries of rows gone long enough */
		if (!l->frees_tracked && (m->prune.nids || m->prune.nrows))
			uct_loader_prune(l, m->prune.ids, m->prune.nids, m->prune.rows,
					 m->prune.nrows);
		/* best effort: without the iterator or /proc the leaf limits
		 * just show "-", and namespaces go unnamed */
		if (uct_loader_task_limits(l, &iter_tl, &ntl) == 0) {
			uct_model_set_caller_limits_by_id(m, iter_tl, ntl);
			err = uct_model_set_tasks(m, iter_tl, ntl);
		} else if (uct_privread_task_limits(&env->pr, &proc_tl, &ntl) == 0) {
			uct_model_set_caller_limits(m, proc_tl, ntl);
		}
		free(proc_tl);
		/* a tty looks up the cgroups and passwd files of the lines it
		 * shows; the other views show every namespace */
		if (!err && !c->tty)
			uct_model_resolve_names(m, -1, 0);
	}
	if (err)
		fprintf(stderr, "ucounttop: out of memory\n");
	return err;
}

/* The model and the views' context, as the options set them; a
 * namespace's passwd file through its process's root and a cgroup path
 * through /proc (by a helper, with a deadline: privread.h, pwreader.h),
 * or ours. */
static void setup_model(struct uct_model *m, struct uct_view_ctx *c, struct top_env *env,
		       const struct uct_opts *o, struct uct_pwreader *pr)
{
	const struct uct_loader *l = env->l;

	*c = (struct uct_view_ctx){ .snapshot_src = l->snapshot_src, .hooks = l->hooks,
				    .degraded = l->degraded, .events = o->events,
				    .no_tenant_labels = o->no_tenant_labels,
				    .delay = o->delay, .cursor = 0 };
	uct_model_init(m);
	m->sort = o->sort;
	m->type_filter = o->type_filter;
	m->ns_filter = o->ns_filter;
	m->uid_filter = o->uid_filter;
	m->show_kuid = o->kuid;
	m->pid_filter = o->pid_filter;
	memcpy(m->container_filter, o->container, sizeof(m->container_filter));
	m->cgroup_fn = uct_privread_cgroup;
	m->cgroup_arg = &env->pr;
	m->docker_name_fn = uct_privread_docker_name;
	m->docker_name_arg = &env->pr;
	m->cri_fn = uct_privread_cri;
	m->cri_arg = &env->pr;
	m->podman_name_fn = uct_privread_podman_name;
	m->podman_name_arg = &env->pr;
	m->passwd_fn = uct_pwreader_read;
	m->passwd_arg = pr;
	/* MEMLOCK is counted in pages of this size; the table shows bytes */
	m->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	uct_pwreader_init(pr, "/proc", "/etc/passwd", &env->pr, &m->passwd);
}

static int run_top(struct top_env *env, const struct uct_opts *o)
{
	struct uct_view_ctx c;
	struct uct_model m;
	struct uct_tty tty;
	struct uct_pwreader pr;
	bool tty_mode = o->output == UCT_OUT_TTY;
	double t0, render_s = 0;
	long i;
	int rc = UCT_EXIT_OK;

	setup_model(&m, &c, env, o, &pr);
	if (tty_mode) {
		c.tty = true;
		uct_tty_geometry(&c);
		uct_tty_open(&tty);
	}
	for (i = 0; !stop && (o->iterations < 0 || i < o->iterations); i++) {
		t0 = uct_now_s();
		/* a failed refresh ends the loop: c.scrape_errors stays 0 */
		if (refresh(env, &m, &c)) {
			rc = UCT_EXIT_FAIL;
			break;
		}
		/* a document cannot time its own rendering: the last one's */
		c.scrape_seconds = uct_now_s() - t0 + render_s;
		t0 = uct_now_s();
		if (tty_mode) {
			uct_tty_render(&tty, &m, &c);
		} else if (o->output_file) {
			if (render_to_file(o, env, &m, &c)) {
				rc = UCT_EXIT_FAIL;
				break;
			}
		} else {
			render(stdout, o, &m, &c);
			if (ferror(stdout)) {
				/* the reader went away (`| head`): a normal end */
				if (errno != EPIPE) {
					fprintf(stderr, "ucounttop: writing output: %s\n",
						strerror(errno));
					rc = UCT_EXIT_FAIL;
				}
				break;
			}
		}
		render_s = uct_now_s() - t0;
		if (o->iterations >= 0 && i + 1 >= o->iterations)
			break;
		if (tty_mode) {
			if (uct_tty_wait(&tty, &m, &c, o->delay, &stop, &winch))
				break;
		} else {
			uct_sleep_s(o->delay, false);	/* SIGINT/SIGTERM end it */
		}
	}
	if (tty_mode)
		uct_tty_close(&tty);
	uct_model_free(&m);
	return rc;
}

struct scrape {
	struct top_env *env;
	struct uct_model *m;
	struct uct_view_ctx *c;
};

static int scrape_snapshot(void *arg)
{
	struct scrape *x = arg;

	return refresh(x->env, x->m, x->c);
}

/* --listen: the model is refreshed by the scrapes (listen.c); SIGHUP's
 * configuration comes from the reader */
static int run_listen(struct top_env *env, const struct uct_opts *o, struct uct_listen *srv)
{
	struct uct_view_ctx c;
	struct uct_model m;
	struct uct_pwreader pr;
	struct scrape x = { env, &m, &c };
	int rc;

	setup_model(&m, &c, env, o, &pr);
	/* a daemon's log says once what the metrics lack (ucounttop_degraded) */
	if (c.degraded && *c.degraded)
		fprintf(stderr, "ucounttop: degraded: %s\n", c.degraded);
	srv->load = uct_reader_load_web;
	srv->load_arg = env->reader;
	sigaction(SIGHUP, &(struct sigaction){ .sa_handler = on_reload }, NULL);
	rc = uct_listen_run(srv, &m, &c, scrape_snapshot, &x, o->delay, o->verbose, &stop,
			    &reload);
	uct_listen_close(srv);
	uct_model_free(&m);
	return rc;
}

/* What the loader takes of the command line */
static struct uct_loader_config loader_config(const struct uct_opts *o)
{
	return (struct uct_loader_config){
		.view = o->cmd == UCT_CMD_TOP,
		.trace = o->cmd == UCT_CMD_TRACE,
		.events = o->events,
		.stack = o->stack,
		.no_tracepoints = o->no_tracepoints,
		.force_task_iter = o->force_task_iter,
		.verbose = o->verbose,
		.ns_filter = o->ns_filter,
		.uid_filter = o->uid_filter,
		.type_filter = o->type_filter,
		.max_entries = o->max_entries,
		.ringbuf_kb = o->ringbuf_kb,
		.pin_dir = o->pin_dir,
		.keep_pinned = o->keep_pinned,
	};
}

/*
 * The live view and --listen, split (privs.h, reader.h): the reader
 * forked with root's reading privileges, then this process becomes
 * uid:gid with none, under its seccomp allowlist, and runs the view.
 */
static int run_view(struct uct_loader *l, const struct uct_opts *o, struct uct_listen *srv,
		    uid_t uid, gid_t gid)
{
	static struct uct_privread_cfg prc;	/* the reader's copy is its fork's */
	struct uct_reader reader;
	struct top_env env = { .l = l, .reader = &reader };
	struct uct_reader_cfg rcfg = { .privread = &prc, .output_file = o->output_file,
				       .web_config = o->web_config, .loader = l };
	char msg[1024];
	int rc, sandboxed;

	uct_privread_cfg_init(&prc);
	if (uct_reader_start(&reader, &rcfg, msg, sizeof(msg))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		uct_listen_close(srv);
		return UCT_EXIT_FAIL;
	}
	/* --pin's pins are the reader's to remove: bpffs is root's */
	l->pinned = false;
	sandboxed = -1;
	if (!uct_become_user(uid, gid, msg, sizeof(msg)))
		sandboxed = uct_sandbox(UCT_ROLE_MAIN, msg, sizeof(msg));
	if (sandboxed < 0) {
		fprintf(stderr, "ucounttop: giving up root: %s\n", msg);
		uct_listen_close(srv);
		uct_reader_stop(&reader);
		return UCT_EXIT_FAIL;
	}
	/* said once, here: the reader is in the same case */
	if (sandboxed > 0)
		fprintf(stderr, "ucounttop: %s: no system call allowlist\n", msg);
	if (uct_privread_init(&env.pr, &prc)) {
		fprintf(stderr, "ucounttop: out of memory\n");
		uct_listen_close(srv);
		uct_reader_stop(&reader);
		return UCT_EXIT_FAIL;
	}
	uct_helper_use_spawner(&env.pr.helper, uct_spawner_spawn, uct_spawner_kill, &reader.sp);
	rc = o->listen ? run_listen(&env, o, srv) : run_top(&env, o);
	uct_privread_free(&env.pr);
	/* detached first; then the reader removes the pins and ends */
	uct_loader_close(l);
	uct_reader_stop(&reader);
	return rc;
}

int main(int argc, char **argv)
{
	struct uct_loader_config lc;
	struct uct_opts o;
	struct uct_loader l;
	struct uct_listen srv = { .fd = -1 };
	char msg[1024] = "";
	uid_t uid = 0;
	gid_t gid = 0;
	int rc;

#ifdef M_MMAP_THRESHOLD
	/*
	 * glibc raises its mmap threshold to the size of each mapped block
	 * freed: after libbpf frees the kernel's parsed BTF (2 MiB and more),
	 * the model's arrays, grown by doubling, would stay in the heap below
	 * that, each growth a copy that leaves the old block behind. Fixed at
	 * glibc's default they are mapped: grown by mremap, returned when
	 * freed.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	rc = uct_parse_opts(argc, argv, &o, stdout, stderr);
	if (rc >= 0)
		return rc;
	/* the full-screen view needs a terminal; anything else gets text */
	if (o.output == UCT_OUT_TTY && o.cmd == UCT_CMD_TOP && !isatty(STDOUT_FILENO))
		o.output = UCT_OUT_BATCH;

	/* a recording is read without the kernel: no privilege needed */
	if (o.cmd == UCT_CMD_TRACE && o.read_file)
		return uct_run_trace_read(&o);
	if ((rc = uct_probe_privileges(msg, sizeof(msg))) ||
	    (rc = uct_probe_btf(msg, sizeof(msg))) ||
	    (o.pin_dir && (rc = uct_probe_bpffs(o.pin_dir, msg, sizeof(msg))))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		/* check cannot judge without them: kselftest's skip */
		return o.cmd == UCT_CMD_CHECK && rc == UCT_EXIT_PRIV ? UCT_EXIT_SKIP : rc;
	}
	if (o.cmd == UCT_CMD_CHECK)
		return check_main(&o);
	/* who the view runs as: an unknown user fails before anything loads */
	if (o.cmd == UCT_CMD_TOP &&
	    (rc = uct_run_as_lookup(o.run_as, &uid, &gid, msg, sizeof(msg)))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		return rc;
	}
	/* before anything is loaded: a port in use fails at once */
	if (o.listen && (rc = uct_listen_open(&srv, &o.listen_addr, o.web_config, msg, sizeof(msg)))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		return rc;
	}
	install_signals();
	lc = loader_config(&o);
	rc = uct_loader_open(&l, &lc, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		uct_loader_close(&l);
		uct_listen_close(&srv);
		return rc;
	}
	if (o.pin_dir)
		fprintf(stderr, "ucounttop: pinned maps and links under %s%s\n", o.pin_dir,
			o.keep_pinned ? " (kept on exit)" : "");
	/* loaded and attached: trace drops its privileges once its ring
	 * buffer is open, the view splits in two */
	if (o.cmd == UCT_CMD_TRACE) {
		rc = uct_run_trace(&l, &o, &stop);
		uct_loader_close(&l);
		return rc;
	}
	return run_view(&l, &o, &srv, uid, gid);
}
