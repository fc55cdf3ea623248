// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - what this kernel and this process can do (see probe.h): the
 * privileges, BTF and bpffs a run needs, the kernel's data layout, and
 * the hooks it offers, asked of its BTF and of the verifier.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include "common.h"
#include "loader_internal.h"
#include "probe.h"

#define BTF_PATH	"/sys/kernel/btf/vmlinux"
#define BPF_FS_MAGIC_	0xcafe4a11
#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif


int uct_probe_privileges(char *msg, size_t len)
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

int uct_probe_btf(char *msg, size_t len)
{
	if (access(BTF_PATH, R_OK) == 0)
		return UCT_EXIT_OK;
	snprintf(msg, len,
		 "this kernel has no BTF (%s: %s): ucounttop needs a kernel built with "
		 "CONFIG_DEBUG_INFO_BTF=y (most distribution kernels since 5.x have it)",
		 BTF_PATH, strerror(errno));
	return UCT_EXIT_KERNEL;
}

int uct_probe_bpffs(const char *dir, char *msg, size_t len)
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

static bool has(const struct btf *btf, const char *name, int kind)
{
	return btf__find_by_name_kind(btf, name, kind) >= 0;
}

/* Does struct sname have a member mname? */
static bool has_member(const struct btf *btf, const char *sname, const char *mname)
{
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;
	int i;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), mname))
			return true;
	return false;
}

/*
 * The programs index the counters by enum rlimit_type and keep its values
 * as ours (bpf/core_fixes.bpf.h): a kernel that renumbered it is refused
 * here, before anything is loaded. -1 on a mismatch, with msg set.
 */
static int check_rlimit_enum(const struct btf *btf, char *msg, size_t len)
{
	static const char *const names[UCT_NTYPES] = {
		[UCT_NPROC] = "UCOUNT_RLIMIT_NPROC", [UCT_MSGQUEUE] = "UCOUNT_RLIMIT_MSGQUEUE",
		[UCT_SIGPENDING] = "UCOUNT_RLIMIT_SIGPENDING", [UCT_MEMLOCK] = "UCOUNT_RLIMIT_MEMLOCK",
	};
	int id = btf__find_by_name_kind(btf, "rlimit_type", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	int i, j, found = 0;

	if (id < 0) {
		snprintf(msg, len, "the kernel's BTF has no enum rlimit_type: not a kernel with "
			 "per-user-namespace rlimit counters ucounttop can read");
		return -1;
	}
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		for (j = 0; j < UCT_NTYPES; j++) {
			if (strcmp(btf__name_by_offset(btf, e->name_off), names[j]))
				continue;
			if (e->val != j) {
				snprintf(msg, len, "this kernel numbers %s %d, ucounttop knows it as %d: "
					 "a newer layout than this ucounttop supports", names[j],
					 e->val, j);
				return -1;
			}
			found++;
		}
	}
	if (found != UCT_NTYPES) {
		snprintf(msg, len, "the kernel's enum rlimit_type lacks one of the four rlimit "
			 "counters ucounttop reads");
		return -1;
	}
	return 0;
}

int uct_probe_kernel_layout(const struct btf *btf, char *msg, size_t len)
{
	static const struct { const char *s, *m; } need[] = {
		{ "ucounts", "rlimit" },
		{ "user_namespace", "rlimit_max" },
		{ "cred", "ucounts" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(need); i++) {
		if (has_member(btf, need[i].s, need[i].m))
			continue;
		snprintf(msg, len, "this kernel is too old for ucounttop: struct %s has no "
			 "member %s (it needs the per-user-namespace rlimit counters in their "
			 "6.1 layout: struct ucounts.rlimit[] and user_namespace.rlimit_max[]; "
			 "Linux 6.1 is the oldest tested)", need[i].s, need[i].m);
		return -1;
	}
	return check_rlimit_enum(btf, msg, len);
}

bool uct_test_listed(const char *var, const char *item)
{
	const char *list = getenv(var), *p;
	size_t n = strlen(item);

	for (p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, item, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* The BTF id a tracing program of kind attaches to name by (< 0: not in
 * BTF), and its attach type */
static int hook_btf_id(const struct btf *btf, const char *kind, const char *name,
		       enum bpf_attach_type *type)
{
	char tname[128];

	if (!strcmp(kind, "tp_btf")) {
		snprintf(tname, sizeof(tname), "btf_trace_%s", name);
		*type = BPF_TRACE_RAW_TP;
		return btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
	}
	*type = strcmp(kind, "fexit") ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT;
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
}

bool uct_can_attach(const struct btf *vmlinux, const char *kind, const char *name)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char hook[128];
	int id, fd;

	id = hook_btf_id(vmlinux, kind, name, &opts.expected_attach_type);
	if (id < 0)
		return false;
	/* test hook: UCOUNTTOP_TEST_REFUSE="fexit:x,tp_btf:y" makes those
	 * probes fail, to exercise the degraded paths on a kernel that has
	 * every hook */
	snprintf(hook, sizeof(hook), "%s:%s", kind, name);
	if (uct_test_listed("UCOUNTTOP_TEST_REFUSE", hook))
		return false;
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, ARRAY_SIZE(insns), &opts);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* In BTF and accepted by the verifier; a refusal of something that is in
 * BTF is remembered for the degraded: line. */
static bool probe(struct uct_features *f, const struct btf *btf, const char *kind,
		  const char *name)
{
	enum bpf_attach_type type;
	size_t off = strlen(f->refused);

	if (hook_btf_id(btf, kind, name, &type) < 0)
		return false;
	if (uct_can_attach(btf, kind, name))
		return true;
	snprintf(f->refused + off, sizeof(f->refused) - off, "%s%s:%s", off ? "," : "", kind,
		 name);
	return false;
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
	if (uct_probe_kernel_layout(btf, msg, len)) {
		btf__free(btf);
		return UCT_EXIT_KERNEL;
	}
	/* An iterator target "x" is registered with a BTF func bpf_iter_x. */
	f->iter_ucounts = has(btf, "bpf_iter_ucounts", BTF_KIND_FUNC);
	f->iter_task = has(btf, "bpf_iter_task", BTF_KIND_FUNC);
	/* our series (v3) makes inc_rlimit_ucounts() an inline wrapper */
	f->fn_inc_over = probe(f, btf, "fexit", "inc_rlimit_ucounts_over") &&
			 probe(f, btf, "fentry", "inc_rlimit_ucounts_over");
	if (!f->fn_inc_over)
		f->fn_inc = probe(f, btf, "fexit", "inc_rlimit_ucounts");
	f->fn_dec = probe(f, btf, "fexit", "dec_rlimit_ucounts");
	f->fn_inc_get = probe(f, btf, "fexit", "inc_rlimit_get_ucounts");
	f->fn_dec_put = probe(f, btf, "fentry", "dec_rlimit_put_ucounts");
	f->fn_overlimit = probe(f, btf, "fexit", "is_rlimit_overlimit");
	f->fn_ucounts_overlimit = probe(f, btf, "fexit", "ucounts_overlimit");
	f->fn_mqueue = probe(f, btf, "fexit", "mqueue_get_inode") &&
		       probe(f, btf, "fentry", "mqueue_evict_inode");
	f->fn_shm = probe(f, btf, "fentry", "shmem_lock") &&
		    probe(f, btf, "fexit", "user_shm_lock") &&
		    probe(f, btf, "fentry", "user_shm_unlock") &&
		    probe(f, btf, "fentry", "shmem_evict_inode");
	f->tp_alloc = probe(f, btf, "tp_btf", "ucounts_alloc");
	f->tp_free = probe(f, btf, "tp_btf", "ucounts_free");
	f->tp_charge = probe(f, btf, "tp_btf", "ucounts_rlimit_charge");
	f->tp_uncharge = probe(f, btf, "tp_btf", "ucounts_rlimit_uncharge");
	f->tp_refused = probe(f, btf, "tp_btf", "ucounts_rlimit_refused");
	f->tp_signal_generate = probe(f, btf, "tp_btf", "signal_generate");
	f->fn_timer_sigq = probe(f, btf, "fexit", "posixtimer_init_sigqueue") &&
			   probe(f, btf, "fentry", "posixtimer_init_sigqueue");
	if (!f->fn_timer_sigq)
		f->fn_sigq_alloc = probe(f, btf, "fexit", "sigqueue_alloc") &&
				   probe(f, btf, "fentry", "sigqueue_alloc");
	f->preempt_rt = has_member(btf, "spinlock", "lock");
	btf__free(btf);
	return UCT_EXIT_OK;
}
