// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c - probe the kernel, choose, load, attach and pin the programs of
 * ucounttop.bpf.c; read snapshots (iterator fd), stats (map) and events.
 *
 * Feature probing reads the kernel's BTF only (like bcc trace_helpers'
 * fentry_can_attach): a function or tracepoint that is not in vmlinux BTF
 * cannot be attached to, so its program is not loaded at all
 * (bpf_program__set_autoload(false)) and the tool degrades as described
 * in bpf/ucounttop.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "loader.h"
#include "ucounttop.skel.h"

#define BTF_PATH	"/sys/kernel/btf/vmlinux"
#define BPF_FS_MAGIC_	0xcafe4a11
#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif

static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int uct_check_privileges(char *msg, size_t len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	unsigned long long eff;

	if (syscall(SYS_capget, &hdr, data)) {
		snprintf(msg, len, "cannot read capabilities: %s", strerror(errno));
		return UCT_EXIT_FAIL;
	}
	eff = data[0].effective | (unsigned long long)data[1].effective << 32;
	if (eff & (1ULL << CAP_SYS_ADMIN))
		return UCT_EXIT_OK;
	if ((eff & (1ULL << CAP_BPF)) && (eff & (1ULL << CAP_PERFMON)))
		return UCT_EXIT_OK;
	snprintf(msg, len,
		 "missing privilege: loading tracing BPF programs needs root, or CAP_BPF "
		 "and CAP_PERFMON (uid %u has neither). Run it with sudo, or grant them: "
		 "setcap cap_bpf,cap_perfmon+ep ucounttop", (unsigned)geteuid());
	return UCT_EXIT_PRIV;
}

int uct_check_btf(char *msg, size_t len)
{
	if (access(BTF_PATH, R_OK) == 0)
		return UCT_EXIT_OK;
	snprintf(msg, len,
		 "this kernel has no BTF (%s: %s): ucounttop needs a kernel built with "
		 "CONFIG_DEBUG_INFO_BTF=y (most distribution kernels since 5.x have it)",
		 BTF_PATH, strerror(errno));
	return UCT_EXIT_KERNEL;
}

static bool has(const struct btf *btf, const char *name, int kind)
{
	return btf__find_by_name_kind(btf, name, kind) >= 0;
}

int uct_probe_features(struct uct_features *f, char *msg, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();

	memset(f, 0, sizeof(*f));
	if (!btf) {
		snprintf(msg, len, "cannot load the kernel's BTF from %s: %s", BTF_PATH,
			 strerror(errno));
		return UCT_EXIT_KERNEL;
	}
	/* An iterator target "x" is registered with a BTF func bpf_iter_x. */
	f->iter_ucounts = has(btf, "bpf_iter_ucounts", BTF_KIND_FUNC);
	f->iter_task = has(btf, "bpf_iter_task", BTF_KIND_FUNC);
	f->fn_inc = has(btf, "inc_rlimit_ucounts", BTF_KIND_FUNC);
	f->fn_dec = has(btf, "dec_rlimit_ucounts", BTF_KIND_FUNC);
	f->fn_inc_get = has(btf, "inc_rlimit_get_ucounts", BTF_KIND_FUNC);
	f->fn_dec_put = has(btf, "dec_rlimit_put_ucounts", BTF_KIND_FUNC);
	f->fn_overlimit = has(btf, "is_rlimit_overlimit", BTF_KIND_FUNC);
	f->fn_ucounts_overlimit = has(btf, "ucounts_overlimit", BTF_KIND_FUNC);
	/* A tracepoint x has a typedef btf_trace_x in BTF. */
	f->tp_alloc = has(btf, "btf_trace_ucounts_alloc", BTF_KIND_TYPEDEF);
	f->tp_free = has(btf, "btf_trace_ucounts_free", BTF_KIND_TYPEDEF);
	f->tp_charge = has(btf, "btf_trace_ucounts_rlimit_charge", BTF_KIND_TYPEDEF);
	f->tp_uncharge = has(btf, "btf_trace_ucounts_rlimit_uncharge", BTF_KIND_TYPEDEF);
	f->tp_refused = has(btf, "btf_trace_ucounts_rlimit_refused", BTF_KIND_TYPEDEF);
	f->tp_signal_generate = has(btf, "btf_trace_signal_generate", BTF_KIND_TYPEDEF);
	btf__free(btf);
	return UCT_EXIT_OK;
}

int uct_check_bpffs(const char *dir, char *msg, size_t len)
{
	char parent[PATH_MAX];
	struct statfs st;
	char *slash;

	/* DIR itself when it exists, else the directory it would be made in */
	snprintf(parent, sizeof(parent), "%s", dir);
	while (statfs(parent, &st)) {
		slash = strrchr(parent, '/');
		if (errno != ENOENT || !slash) {
			snprintf(msg, len, "--pin %s: %s", dir, strerror(errno));
			return UCT_EXIT_FAIL;
		}
		if (slash == parent)
			slash[1] = 0;
		else
			*slash = 0;
	}
	if ((unsigned long)st.f_type != BPF_FS_MAGIC_) {
		snprintf(msg, len,
			 "--pin %s: %s is not on a BPF filesystem (bpffs not mounted?). "
			 "Mount it with: mount -t bpf bpf /sys/fs/bpf, and pin under it", dir,
			 parent);
		return UCT_EXIT_KERNEL;
	}
	return UCT_EXIT_OK;
}

/* All programs of the skeleton with their link slots. */
struct prog_slot {
	struct bpf_program *prog;
	struct bpf_link **link;
	const char *what;	/* for the hooks summary */
};

static size_t prog_slots(struct ucounttop_bpf *s, struct prog_slot *out)
{
	struct prog_slot all[] = {
		{ s->progs.snap_ucounts, &s->links.snap_ucounts, "iter/ucounts" },
		{ s->progs.snap_task, &s->links.snap_task, "iter/task" },
		{ s->progs.overlimit_exit, &s->links.overlimit_exit, "fexit:is_rlimit_overlimit" },
		{ s->progs.ucounts_overlimit_exit, &s->links.ucounts_overlimit_exit,
		  "fexit:ucounts_overlimit" },
		{ s->progs.tp_refused, &s->links.tp_refused, "tp:refused" },
		{ s->progs.tp_alloc, &s->links.tp_alloc, "tp:alloc" },
		{ s->progs.tp_free, &s->links.tp_free, "tp:free" },
		{ s->progs.tp_charge, &s->links.tp_charge, "tp:charge" },
		{ s->progs.tp_uncharge, &s->links.tp_uncharge, "tp:uncharge" },
		{ s->progs.inc_exit, &s->links.inc_exit, "fexit:inc_rlimit_ucounts" },
		{ s->progs.dec_exit, &s->links.dec_exit, "fexit:dec_rlimit_ucounts" },
		{ s->progs.inc_get_exit, &s->links.inc_get_exit, "fexit:inc_rlimit_get_ucounts" },
		{ s->progs.dec_put_entry, &s->links.dec_put_entry, "fentry:dec_rlimit_put_ucounts" },
		{ s->progs.sig_generate, &s->links.sig_generate, "tp:signal_generate" },
	};

	memcpy(out, all, sizeof(all));
	return ARRAY_SIZE(all);
}

static int loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len);

/* Decide which programs load. Returns an exit code. */

/*
 * The header says what this kernel lacks and what that costs the user, so
 * a reading on a stock kernel is never mistaken for a complete one.
 */
static void describe_degradation(char *buf, size_t len, const struct uct_features *f,
				 bool iter_ucounts)
{
	size_t off = 0;

	buf[0] = 0;
#define ADD(...) (off += snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
	if (!iter_ucounts)
		ADD("%sno iter/ucounts (kernel without the ucounttop series): tree seeded from "
		    "live tasks' creds, so ucounts held only by IPC objects or signals are missed",
		    off ? "; " : "");
	if (!f->tp_refused)
		ADD("%sno ucounts_rlimit_refused tracepoint: only nproc denials counted "
		    "(--events counts all, at a per-charge cost)", off ? "; " : "");
	if (!f->tp_alloc || !f->tp_free)
		ADD("%sno ucounts_alloc/free tracepoints: no lifetime events", off ? "; " : "");
#undef ADD
}

static int choose(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	struct ucounttop_bpf *s = l->skel;
	const struct uct_features *f = &l->feat;
	bool tps = !o->no_tracepoints;
	bool use_iter_ucounts = f->iter_ucounts && !o->force_task_iter;
	bool use_tp_events;
	/* our series reports every refusal: no other hook needs to */
	bool use_tp_refused = tps && f->tp_refused;
	struct prog_slot slots[16];
	size_t n = prog_slots(s, slots), i;

	for (i = 0; i < n; i++)
		bpf_program__set_autoload(slots[i].prog, false);

	/* snapshot: the complete iterator when the kernel has it */
	if (use_iter_ucounts) {
		bpf_program__set_autoload(s->progs.snap_ucounts, true);
		l->snapshot_src = "iter/ucounts";
	} else if (f->iter_task) {
		bpf_program__set_autoload(s->progs.snap_task, true);
		l->snapshot_src = "iter/task";
	} else {
		snprintf(msg, len, "kernel lacks a BPF iterator to read ucounts with (neither "
			 "iter/ucounts nor iter/task): needs Linux 5.8 or later");
		return UCT_EXIT_KERNEL;
	}

	/* rare events: always on when available */
	if (use_tp_refused) {
		bpf_program__set_autoload(s->progs.tp_refused, true);
	} else if (f->fn_ucounts_overlimit) {
		bpf_program__set_autoload(s->progs.ucounts_overlimit_exit, true);
	} else if (f->fn_overlimit) {
		bpf_program__set_autoload(s->progs.overlimit_exit, true);
	}

	/* every charge (and ucounts lifetime): --events, trace */
	if (o->events && tps && f->tp_alloc)
		bpf_program__set_autoload(s->progs.tp_alloc, true);
	if (o->events && tps && f->tp_free)
		bpf_program__set_autoload(s->progs.tp_free, true);
	if (o->events) {
		use_tp_events = use_tp_refused && f->tp_charge && f->tp_uncharge;
		if (use_tp_events) {
			bpf_program__set_autoload(s->progs.tp_charge, true);
			bpf_program__set_autoload(s->progs.tp_uncharge, true);
		} else {
			const char *missing = !f->fn_inc ? "inc_rlimit_ucounts" :
					      !f->fn_dec ? "dec_rlimit_ucounts" :
					      !f->fn_inc_get ? "inc_rlimit_get_ucounts" :
					      !f->fn_dec_put ? "dec_rlimit_put_ucounts" : NULL;
			if (missing) {
				snprintf(msg, len, "kernel lacks the function %s (not in its BTF), "
					 "needed for --events and trace; this needs Linux 5.14 "
					 "or later with per-namespace rlimit counting", missing);
				return UCT_EXIT_KERNEL;
			}
			bpf_program__set_autoload(s->progs.inc_exit, true);
			bpf_program__set_autoload(s->progs.dec_exit, true);
			bpf_program__set_autoload(s->progs.inc_get_exit, true);
			bpf_program__set_autoload(s->progs.dec_put_entry, true);
		}
		if (!use_tp_refused && f->tp_signal_generate)
			bpf_program__set_autoload(s->progs.sig_generate, true);
	}
	s->rodata->emit_events = o->cmd == UCT_CMD_TRACE;
	s->rodata->want_stack = o->stack;
	s->rodata->filter_ns = (__u32)o->ns_filter;
	s->rodata->filter_uid = o->uid_filter;
	s->rodata->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	return UCT_EXIT_OK;
}

static int pin_all(struct uct_loader *l, char *msg, size_t len)
{
	struct ucounttop_bpf *s = l->skel;
	struct { struct bpf_map *map; const char *name; } maps[] = {
		{ s->maps.stats, "stats" }, { s->maps.seen, "seen" },
		{ s->maps.events, "events" }, { s->maps.bss, "counters" },
	};
	struct prog_slot slots[16];
	size_t n = prog_slots(s, slots), i;
	char path[PATH_MAX + 64];
	DIR *d;

	if (mkdir(l->pin_dir, 0700) && errno != EEXIST) {
		snprintf(msg, len, "--pin: cannot create %s: %s", l->pin_dir, strerror(errno));
		return UCT_EXIT_FAIL;
	}
	d = opendir(l->pin_dir);
	if (d) {
		struct dirent *e;

		while ((e = readdir(d))) {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				closedir(d);
				snprintf(msg, len, "--pin: %s is not empty (another ucounttop, or one "
					 "run with --keep-pinned?). Remove it first: rm -r %s",
					 l->pin_dir, l->pin_dir);
				return UCT_EXIT_FAIL;
			}
		}
		closedir(d);
	}
	l->pinned = true;
	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		snprintf(path, sizeof(path), "%s/%s", l->pin_dir, maps[i].name);
		if (bpf_map__pin(maps[i].map, path)) {
			snprintf(msg, len, "--pin: pinning map at %s: %s", path, strerror(errno));
			return UCT_EXIT_FAIL;
		}
	}
	for (i = 0; i < n; i++) {
		if (!*slots[i].link)
			continue;
		snprintf(path, sizeof(path), "%s/link_%s", l->pin_dir,
			 bpf_program__name(slots[i].prog));
		if (bpf_link__pin(*slots[i].link, path)) {
			snprintf(msg, len, "--pin: pinning link at %s: %s", path, strerror(errno));
			return UCT_EXIT_FAIL;
		}
	}
	return UCT_EXIT_OK;
}

static void unpin_all(struct uct_loader *l)
{
	struct ucounttop_bpf *s = l->skel;
	struct bpf_map *maps[] = { s->maps.stats, s->maps.seen, s->maps.events, s->maps.bss };
	struct prog_slot slots[16];
	size_t n = prog_slots(s, slots), i;

	for (i = 0; i < ARRAY_SIZE(maps); i++)
		bpf_map__unpin(maps[i], NULL);
	for (i = 0; i < n; i++)
		if (*slots[i].link)
			bpf_link__unpin(*slots[i].link);
	rmdir(l->pin_dir);
}

int uct_loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	struct uct_opts retry;
	int err;

	err = loader_open(l, o, msg, len);
	if (err != UCT_EXIT_FAIL || !l->skel || l->snapshot_src == NULL ||
	    strcmp(l->snapshot_src, "iter/ucounts") || l->iter_link)
		return err;
	/* iter/ucounts exists but did not load (an iterator ABI other than
	 * ours?): the task iterator still works */
	fprintf(stderr, "ucounttop: warning: %s; retrying with the task iterator\n", msg);
	uct_loader_close(l);
	retry = *o;
	retry.force_task_iter = true;
	return loader_open(l, &retry, msg, len);
}

static int loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	struct prog_slot slots[16];
	size_t n, i;
	int err;

	memset(l, 0, sizeof(*l));
	verbose = o->verbose;
	libbpf_set_print(print_fn);

	err = uct_probe_features(&l->feat, msg, len);
	if (err)
		return err;
	l->skel = ucounttop_bpf__open();
	if (!l->skel) {
		snprintf(msg, len, "cannot open the BPF object: %s", strerror(errno));
		return UCT_EXIT_FAIL;
	}
	err = choose(l, o, msg, len);
	if (err)
		return err;
	l->events = o->events;
	bpf_map__set_max_entries(l->skel->maps.stats, o->max_entries);
	bpf_map__set_max_entries(l->skel->maps.seen, o->max_entries);
	/* the ring buffer only carries trace events: keep it tiny otherwise */
	bpf_map__set_max_entries(l->skel->maps.events,
				 o->cmd == UCT_CMD_TRACE ? o->ringbuf_kb * 1024 :
				 (unsigned)sysconf(_SC_PAGESIZE));

	err = ucounttop_bpf__load(l->skel);
	if (err) {
		snprintf(msg, len, "loading BPF programs failed: %s%s", strerror(-err),
			 o->verbose ? "" : " (run with -v for libbpf's log)");
		return err == -EPERM ? UCT_EXIT_PRIV : UCT_EXIT_FAIL;
	}

	describe_degradation(l->degraded, sizeof(l->degraded), &l->feat,
			     !strcmp(l->snapshot_src, "iter/ucounts"));
	n = prog_slots(l->skel, slots);
	l->hooks[0] = 0;
	for (i = 0; i < n; i++) {
		if (!bpf_program__autoload(slots[i].prog))
			continue;
		*slots[i].link = bpf_program__attach(slots[i].prog);
		if (!*slots[i].link) {
			err = -errno;
			snprintf(msg, len, "attaching %s failed: %s%s", slots[i].what, strerror(-err),
				 err == -ENOENT || err == -ESRCH || err == -EINVAL ?
				 " (the kernel cannot trace this function/tracepoint)" : "");
			return err == -EPERM ? UCT_EXIT_PRIV :
			       err == -ENOENT || err == -ESRCH ? UCT_EXIT_KERNEL : UCT_EXIT_FAIL;
		}
		if (slots[i].prog == l->skel->progs.snap_ucounts ||
		    slots[i].prog == l->skel->progs.snap_task) {
			l->iter_link = *slots[i].link;
			continue;
		}
		snprintf(l->hooks + strlen(l->hooks), sizeof(l->hooks) - strlen(l->hooks),
			 "%s%s", l->hooks[0] ? "," : "", slots[i].what);
	}
	if (o->pin_dir) {
		snprintf(l->pin_dir, sizeof(l->pin_dir), "%s", o->pin_dir);
		l->keep_pinned = o->keep_pinned;
		err = pin_all(l, msg, len);
		if (err)
			return err;
	}
	return UCT_EXIT_OK;
}

void uct_loader_close(struct uct_loader *l)
{
	if (l->rb)
		ring_buffer__free(l->rb);
	if (l->skel) {
		if (l->pinned && !l->keep_pinned)
			unpin_all(l);
		/* pinned links stay attached after we exit; detach otherwise */
		ucounttop_bpf__destroy(l->skel);
	}
	free(l->snap_buf);
	free(l->stats);
	memset(l, 0, sizeof(*l));
}

/*
 * Run an iterator once and read all it writes into *buf (grown as needed,
 * kept by the caller across calls). 0 or -errno.
 */
int uct_read_iter(struct bpf_link *link, char **buf, size_t *cap, size_t *used)
{
	ssize_t got;
	int fd = bpf_iter_create(bpf_link__fd(link));

	if (fd < 0)
		return -errno;
	*used = 0;
	for (;;) {
		if (*cap - *used < 4096) {
			size_t ncap = *cap ? *cap * 2 : 64 * 1024;
			char *p = realloc(*buf, ncap);

			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			*buf = p;
			*cap = ncap;
		}
		got = read(fd, *buf + *used, *cap - *used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (!got)
			break;
		*used += got;
	}
	close(fd);
	return 0;
}

int uct_loader_snapshot(struct uct_loader *l, const struct uct_rec **recs, size_t *n)
{
	size_t used;
	int err;

	/* a new generation makes the task iterator's dedup map stale at once */
	l->skel->bss->snap_gen++;
	err = uct_read_iter(l->iter_link, &l->snap_buf, &l->snap_cap, &used);
	if (err)
		return err;
	*recs = (const struct uct_rec *)l->snap_buf;
	*n = used / sizeof(struct uct_rec);
	return 0;
}

int uct_loader_stats(struct uct_loader *l, const struct uct_stat_kv **kv, size_t *n)
{
	int fd = bpf_map__fd(l->skel->maps.stats);
	struct uct_key key, next, *prev = NULL;
	size_t cnt = 0;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (cnt == l->stats_cap) {
			size_t ncap = l->stats_cap ? l->stats_cap * 2 : 256;
			struct uct_stat_kv *p = realloc(l->stats, ncap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			l->stats = p;
			l->stats_cap = ncap;
		}
		/* an entry may vanish between next_key and lookup: skip it */
		if (bpf_map_lookup_elem(fd, &next, &l->stats[cnt].st) == 0) {
			l->stats[cnt].key = next;
			cnt++;
		}
		key = next;
		prev = &key;
	}
	*kv = l->stats;
	*n = cnt;
	return 0;
}

void uct_loader_counters(struct uct_loader *l, unsigned long long out[UCT_NCOUNTERS])
{
	int i;

	for (i = 0; i < UCT_NCOUNTERS; i++)
		out[i] = __atomic_load_n(&l->skel->bss->counters[i], __ATOMIC_RELAXED);
}

int uct_loader_open_events(struct uct_loader *l, uct_event_fn cb, void *ctx)
{
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.events), cb, ctx, NULL);
	return l->rb ? 0 : -errno;
}

int uct_loader_poll_events(struct uct_loader *l, int timeout_ms)
{
	return ring_buffer__poll(l->rb, timeout_ms);
}
