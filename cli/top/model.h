/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the ucounts tree built from one snapshot: the live view's
 * model, the API of the top/ layer.
 *
 * Input: the uct_rec records of a snapshot (any order, duplicates allowed)
 * and the per-object statistics of the BPF stats map. A row is named by
 * (ns, uid) but is one object: when the object at (ns, uid) changes
 * (freed, and a new namespace reused the inode), the row starts afresh.
 * Output: a tree of user namespaces, each with its rows (one per uid),
 * plus per-row derived data: change since the previous update, the limit
 * enforced at that level, the sum of the rows charged through it, and
 * flags. No libbpf here: the unit tests feed synthetic snapshots.
 *
 * model.c builds the tree (uct_model_update()), layout.c orders it for
 * display (uct_model_relayout()), nsnames.c names its namespaces
 * (uct_model_set_tasks(), uct_model_resolve_names()).
 *
 * Semantics (kernel/ucount.c): a charge to row (ns C, uid u) also charges
 * every ancestor row: (C->parent, C->owner) and so on up to the init
 * namespace. The ancestor (P, o) of namespace C is compared with
 * C->rlimit_max[type]; the leaf is compared with the caller's own rlimit.
 * So a row's limit is the smallest rlimit_max of the namespaces it
 * created (unknown for a row that created none), and a row's value must be
 * at least the sum of the rows of those namespaces.
 */
#ifndef UCT_MODEL_H
#define UCT_MODEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "common.h"
#include "cgroups.h"
#include "prune.h"
#include "users.h"

/* uct_row.flags */
#define UCT_F_DENIALS		0x1	/* refused charges since attach */
#define UCT_F_OVER		0x2	/* value above the limit at this level */
#define UCT_F_IMBALANCED	0x4	/* value < sum of its child namespaces' rows */
#define UCT_F_NEW		0x8	/* not in the previous snapshot */

enum uct_sort {
	UCT_SORT_UID,		/* ascending */
	UCT_SORT_NPROC,		/* descending by value, same for the next 3 */
	UCT_SORT_MSGQUEUE,
	UCT_SORT_SIGPENDING,
	UCT_SORT_MEMLOCK,
	UCT_SORT_DENIALS,	/* denials since attach, descending */
	UCT_SORT_CHANGE,	/* sum of |change| since last refresh, descending */
	UCT_SORT_COUNT
};

/*
 * A row's stats entry and what follows from it. Out of the row: only the
 * objects that were refused a charge (or, with --events, charged) have
 * one, and every byte of struct uct_row is paid once per ucounts.
 */
struct uct_rowstat {
	struct uct_stat st;
	unsigned long long new_denials[UCT_NTYPES];	/* since the previous update */
	double event_rate[UCT_NTYPES];	/* (un)charge calls per second, events mode */
};

/*
 * A row's limits and child sums, when it has any: a row that created
 * namespaces, or whose live tasks' rlimits are known. Out of the row for
 * the same reason; uct_row_lim() reads it.
 */
struct uct_rowlim {
	long long limit[UCT_NTYPES];	/* enforced at this level; -1: caller's rlimit */
	long long caller_limit[UCT_NTYPES];/* smallest rlimit of the row's live tasks, -1: none */
	long long child_sum[UCT_NTYPES];/* sum of rows of namespaces it created */
};

/*
 * A snapshot record as its row keeps it: struct uct_rec up to value[],
 * less ns_max[], which its namespace keeps (uct_nsinfo.max).
 */
struct uct_rowrec {
	__u64 id;
	__u32 ns_inum, uid, parent_ns_inum, parent_uid, level, owner_uid, refcount, flags;
	__u32 ns_uid, owner_ns_uid;
	__s64 value[UCT_NTYPES];
};

struct uct_row {
	struct uct_rowrec rec;
	const struct uct_rowstat *stat;	/* never NULL: zeros when has_stat is false */
	double first_seen;		/* time of the first update that had it */
	int lim;			/* index into model.lims, -1: none (uct_row_lim()) */
	/* index into model.deltas, -1: no change (uct_row_delta()). Out of
	 * the row: between two refreshes few rows change, and a change
	 * needs 64 bits (values are bounded to +-2^53, so 2^54 apart) */
	int delta;
	int nchild_ns;			/* namespaces whose creator row this is */
	unsigned flags;			/* UCT_F_* */
	int ns;				/* index into model.ns */
	bool has_stat;
	bool on_chain;			/* --pid: the process charges this row */
	bool name_chain;		/* --container, search: a matching
					 * namespace's charges reach this row */
	bool visible;			/* passes the filters */
	const char *user;		/* ns_uid's name in its namespace, once
					 * resolved (uct_row_ns_user()) */
	/* its processes and refusals by cgroup: model.shares[share ..
	 * share + nshares), containers first (struct uct_share) */
	int share, nshares;
	int ncontainers;		/* of them, in a container's cgroup */
	bool shares_named;		/* cgroups looked up, containers first */
	bool shared;			/* processes of a container other than
					 * its namespace's own are in it */
};

/*
 * A row's share in one cgroup: the processes whose real cred charges the
 * row directly (not through a namespace it created, whose rows show
 * those) and the refusals of the row's charges made by tasks of that
 * cgroup. Many containers run as one uid in the host's user namespace:
 * they share that uid's row, and its RLIMIT_NPROC, and this says which
 * holds how many of its processes and whose fork was refused.
 */
struct uct_share {
	__u64 cgroup_id;		/* 0: no cgroups in this kernel */
	__u32 processes;		/* NPROC charges: threads, zombies too */
	__u32 pid;			/* one of those processes, 0: none left */
	unsigned long long denials[UCT_NTYPES];	/* since attach */
	const char *cgroup;		/* path, NULL: not known (no process) */
	const char *container;		/* container id in it (cgroups.h), NULL: none */
	const char *container_name;	/* the engine's name for it, NULL: none known */
	__u32 container_tenant;		/* 0, or the uid whose rootless Podman
					 * claims the id (struct uct_cgname) */
	const struct uct_kube *kube;	/* its pod, NULL: not Kubernetes' (kube.h) */
};

/* uct_nsinfo.held: what keeps a namespace with no process alive, as far
 * as its counters tell (anything else - an open /proc/PID/ns/user, a bind
 * mount, a file opened with a cred of it - shows as none of these) */
#define UCT_HELD_CHILD_NS	0x1	/* a user namespace one of its rows created */
#define UCT_HELD_QUEUE		0x2	/* a POSIX message queue charged here */
#define UCT_HELD_LOCKED		0x4	/* a SHM_LOCKed (or hugetlb) segment */
#define UCT_HELD_SIGNAL		0x8	/* a queued signal */

/*
 * What runs in a namespace: its oldest process (thread-group leader)
 * whose real cred is in it, by start time, as the task_limits iterator
 * reports it (uct_model_set_tasks()). Strings are NUL-terminated. Only a
 * namespace with a process has one of its own: a namespace held by a file
 * or a child namespace alone shares one of zeros.
 */
struct uct_nsname {
	__u32 pid;			/* 0: no process of it is running */
	__u32 ntasks;			/* its processes */
	__u64 start_time;
	__u64 cgroup_id;		/* 0: none (a kernel without cgroups) */
	__u64 root_ino;			/* its root directory and mount namespace: */
	__u32 root_dev, mnt_ns;		/* which /etc/passwd it sees (0: unknown) */
	char comm[UCT_COMM_LEN];
	char hostname[UCT_HOST_LEN];
	const char *cgroup;		/* cgroup v2 path, NULL: not known */
	const char *container;		/* container id in it, NULL: none */
	const char *container_name;	/* the engine's name for it, NULL: none known */
	__u32 container_tenant;		/* as struct uct_share's */
	const struct uct_kube *kube;	/* its pod, NULL: not Kubernetes' (kube.h) */
	bool pending;			/* cgroup not looked up yet */
	bool own_host;			/* hostname differs from the nearest
					 * ancestor's with a process */
};

struct uct_nsinfo {
	__u32 inum, level, owner_uid;
	__u32 owner_ns_uid;		/* owner as the parent maps it, UCT_NO_UID: unmapped */
	__u32 parent_inum, creator_uid;	/* creator row = (parent_inum, creator_uid) */
	long long max[UCT_NTYPES];	/* ns->rlimit_max[], as compared: MEMLOCK in pages */
	int parent;			/* index into model.ns, -1 if not in snapshot */
	int creator_row;		/* index into model.rows, -1 if not in snapshot */
	int *rows;			/* row indexes, sorted by the sort key
					 * (a slice of model.ns_rows) */
	int *children;			/* child ns indexes, sorted by inum
					 * (a slice of model.ns_children) */
	int nrows;
	int nchildren;
	unsigned held;			/* UCT_HELD_*: no process (model.have_tasks) */
	bool root;			/* the init namespace (no parent) */
	bool collapsed;			/* tty: rows and children hidden */
	bool visible;
	/* user names: the passwd file of its oldest process's root (the
	 * initial namespace: ucounttop's /etc/passwd), NULL: none; known
	 * once users_done (uct_model_resolve_names()) */
	struct uct_pwfile *pwfile;
	bool users_done;
	bool name_match;		/* --container, the search: matches */
	bool name_in;			/* it or an ancestor matches */
	/* valid when model.have_tasks; never NULL */
	const struct uct_nsname *name;
};

/* One line of the display order: a namespace header or a row. */
struct uct_line {
	int index;			/* into model.ns or model.rows */
	/* tree depth from the displayed root: at most UCT_MAX_LEVELS + 1
	 * (a row below the deepest namespace shown) */
	__u16 depth;
	bool is_ns;
};

struct uct_prev {
	__u64 id;			/* the object: a new one is a new row */
	__u32 ns_inum, uid;
	long long value[UCT_NTYPES];
	double first_seen;
	int stat;			/* index into model.prev_stats, -1: none */
};

/* rows by object: the stats join looks them up by address */
struct uct_id_row {
	__u64 id;
	int row;
};

struct uct_model {
	struct uct_row *rows;
	size_t nrows, cap_rows;
	struct uct_id_row *by_id;	/* sorted by id */
	size_t n_by_id, cap_by_id;
	/* stats entries: an update fills stats, then swaps the two, so that
	 * the rows and prev.stat point into prev_stats and the next update
	 * fills the other */
	struct uct_rowstat *stats, *prev_stats;
	size_t nstats, cap_stats, cap_prev_stats;
	struct uct_rowlim *lims;	/* uct_row.lim */
	size_t nlims, cap_lims;
	/* uct_row.delta: value - value at the previous update, per type */
	long long (*deltas)[UCT_NTYPES];
	size_t ndeltas, cap_deltas;
	struct uct_nsinfo *ns;
	size_t nns, cap_ns;
	/* what ns[].rows and ns[].children point into */
	int *ns_rows, *ns_children;
	size_t cap_ns_rows, cap_ns_children;
	struct uct_nsname *names;	/* the namespaces with a process */
	size_t nnames, cap_names;
	struct uct_share *shares;	/* uct_row.share */
	size_t nshares, cap_shares;
	/* refusals by cgroup for the next uct_model_set_tasks(), the
	 * caller's (uct_model_set_cg_denials()) */
	const struct uct_cgdeny_kv *cg_denials;
	size_t ncg_denials;
	struct uct_line *lines;		/* display order, visible only */
	size_t nlines, cap_lines;
	struct uct_prev *prev;		/* previous update, sorted by key */
	size_t nprev, cap_prev;
	__u32 *collapsed;		/* inums collapsed in the tty view */
	size_t ncollapsed;
	/* the permutation that sorted the last snapshot by (ns, uid), kept
	 * so that an unchanged one is not sorted again */
	int *in_perm;
	size_t n_in, cap_in_perm;

	/* settings */
	enum uct_sort sort;
	int type_filter;		/* -1: all; else rows with that counter != 0 */
	long long ns_filter;		/* 0: all; else that ns and its subtree */
	long long uid_filter;		/* -1: all; else that global kuid */
	bool show_kuid;			/* --kuid: show and sort by global kuids */
	/* --pid: only the rows a process charges. pid_filter set, pid_ns and
	 * pid_uid name its own row (its cred's user namespace and real kuid;
	 * pid_ns 0: the process is gone, nothing shows) */
	int pid_filter;
	__u32 pid_ns, pid_uid;
	/* MEMLOCK is counted in pages of 1 << page_shift bytes; the table
	 * shows bytes */
	int page_shift;
	/* --container: namespaces whose container id starts with this
	 * (lowercase hex) or whose container's name is this, "" all; search (tty '/'): whose container id,
	 * hostname or comm contains this (any case), "" all. Either shows
	 * the matching namespaces, everything below them, and the rows
	 * their charges reach up to the initial namespace. */
	char container_filter[UCT_CFILTER_MAX + 1];
	char search[64];

	/* names (uct_model_set_tasks()): have_tasks when this update has
	 * them; cgroup paths come from cgroup_fn (the tool reads
	 * /proc/PID/cgroup), once per cgroup id, kept in cgroups, with how
	 * many of the path's first bytes a tenant cannot have made (*trusted:
	 * uct_container_id()) */
	bool have_tasks;
	int (*cgroup_fn)(void *arg, __u32 pid, __u64 cgroup_id, char *path, size_t len,
			 size_t *trusted, __u32 *tenant);
	void *cgroup_arg;
	struct uct_cache cgroups;	/* of struct uct_cgname (cgroups.h) */
	unsigned long cgroup_lookups;	/* cgroup_fn calls so far */
	/* a Docker container's name, by its id, once per cgroup looked up
	 * (the tool: its config.v2.json through the reader, privread.h);
	 * NULL: none. 0 with the name, or -1 */
	int (*docker_name_fn)(void *arg, const char *cid, char name[UCT_CNAME_MAX + 1]);
	void *docker_name_arg;
	/* a Kubernetes container's pod, by its id, once per cgroup looked up
	 * whose path is a pod's (the tool: its OCI bundle's annotations
	 * through the reader); NULL: none. 0 with k, or -1 */
	int (*cri_fn)(void *arg, const char *cid, struct uct_kube *k);
	void *cri_arg;
	/* a rootless Podman container's name, user:name, by the uid whose
	 * cgroup subtree claims id cid (the tool: that user's own
	 * containers.json through the reader); NULL: none. 0 with the name,
	 * or -1: the claim is dropped, never shown without a name */
	int (*podman_name_fn)(void *arg, __u32 tenant, const char *cid,
			      char name[UCT_TENANT_CNAME_MAX + 1]);
	void *podman_name_arg;
	/* user names: each namespace's passwd file through passwd_fn (the
	 * tool: uct_passwd_read()), checked at most once per update and
	 * read again only when it changed; kept in users by root */
	uct_passwd_fn passwd_fn;
	void *passwd_arg;
	struct uct_cache users;		/* of struct uct_pwfile (users.h) */
	struct uct_pwbudget passwd;	/* their cost, bounded (users.h) */
	size_t passwd_cursor;		/* namespace the next full resolve starts at */
	int root_ns;			/* index of the initial namespace, -1: none */

	/* status of the last update */
	unsigned long iteration;	/* updates so far */
	double now;			/* time of the last update (s) */
	double interval;		/* seconds since the one before (0 first) */
	size_t duplicates;		/* records merged by (ns, uid) */
	size_t circles;			/* parent links cut: they closed a circle */
	size_t stats_unmatched;		/* stats entries of no object in the snapshot */
	/* entries that matched no row in UCT_PRUNE_AFTER updates in a row,
	 * for the tool to delete on a kernel without ucounts_free */
	struct uct_prune prune;
	unsigned long long counters[UCT_NCOUNTERS];	/* BPF side counters */
	/* refusals since attach: the sum over stats entries, which the tool
	 * replaces with the BPF side's totals (kept past frees) */
	unsigned long long total_denials[UCT_NTYPES];
};

void uct_model_init(struct uct_model *m);
void uct_model_free(struct uct_model *m);

/*
 * Replace the model's content with a new snapshot taken at time now
 * (seconds, any monotonic base). recs may contain duplicates (merged);
 * stats may be NULL. Returns 0 or -ENOMEM.
 */
int uct_model_update(struct uct_model *m, const struct uct_rec *recs, size_t nrec,
		     const struct uct_stat_kv *stats, size_t nstats, double now);

/* Re-sort / re-filter after a settings change (update does it too). */
int uct_model_relayout(struct uct_model *m);

/* Lookups; -1 when absent. */
int uct_model_find_row(const struct uct_model *m, __u32 ns_inum, __u32 uid);
int uct_model_find_ns(const struct uct_model *m, __u32 ns_inum);

/*
 * The leaf check compares a row's value with the charging task's own
 * rlimit. Given every live task's limits (proc_limits.h), set each row's
 * caller_limit to the smallest among its tasks but 0 (a sandbox's: no
 * fork at all); call after each update.
 */
struct uct_task_limits;
void uct_model_set_caller_limits(struct uct_model *m, const struct uct_task_limits *tl,
				 size_t n);
/* The same from the task_limits iterator: rows named by their ucounts */
void uct_model_set_caller_limits_by_id(struct uct_model *m, const struct uct_tlim *tl,
				       size_t n);

/*
 * Name each namespace after what runs in it (struct uct_nsname), from
 * the task_limits iterator's records of this update (any order); call
 * after each update. A namespace none of them is in has no process: its
 * held reasons come from its rows. Cgroup paths known from earlier
 * updates are filled in; the others stay pending until resolved. With a
 * name filter on, resolves everything and lays the view out again.
 * 0 or -ENOMEM.
 */
int uct_model_set_tasks(struct uct_model *m, const struct uct_tlim *tl, size_t n);
/* The refusals by row and cgroup uct_model_set_tasks() splits the rows'
 * refusals by (kept by reference until then) */
void uct_model_set_cg_denials(struct uct_model *m, const struct uct_cgdeny_kv *kv, size_t n);
/* Look up the pending cgroup paths and passwd files: of every namespace
 * (first < 0), or of the namespaces of lines [first, first + count)
 * (what a tty shows); the initial namespace's passwd file either way */
void uct_model_resolve_names(struct uct_model *m, int first, int count);
/* Whether a name filter (--container, search) is on; whether any
 * namespace matches it */
bool uct_model_name_filter_on(const struct uct_model *m);
bool uct_model_name_matched(const struct uct_model *m);

/* tty: flip the collapsed state of a namespace (kept across updates). */
void uct_model_toggle_collapse(struct uct_model *m, __u32 ns_inum);

const char *uct_sort_name(enum uct_sort s);
int uct_sort_parse(const char *s);	/* -1 if unknown */

/*
 * The uid a row is shown and sorted by: the uid its own namespace maps the
 * kuid to (UCT_NO_UID: it maps none), or with show_kuid the global kuid.
 */
static inline __u32 uct_row_uid(const struct uct_model *m, const struct uct_row *r)
{
	return m->show_kuid ? r->rec.uid : r->rec.ns_uid;
}

/* The same for a namespace's owner, as its parent namespace maps it. */
static inline __u32 uct_ns_owner(const struct uct_model *m, const struct uct_nsinfo *ns)
{
	return m->show_kuid ? ns->owner_uid : ns->owner_ns_uid;
}

/* A row's limits and child sums; those of a row that has none: -1, 0 */
extern const struct uct_rowlim uct_no_lim;
static inline const struct uct_rowlim *uct_row_lim(const struct uct_model *m,
						   const struct uct_row *r)
{
	return r->lim >= 0 ? &m->lims[r->lim] : &uct_no_lim;
}

/* The limit a row's charges of type t are compared with: the one at its
 * level (a row that created namespaces), else the smallest rlimit of its
 * processes (the leaf check's); -1: neither is known */
static inline long long uct_row_leaf_limit(const struct uct_model *m, const struct uct_row *r,
					   int t)
{
	const struct uct_rowlim *l = uct_row_lim(m, r);

	return l->limit[t] >= 0 ? l->limit[t] : l->caller_limit[t];
}

/* A row's change since the previous update (0 on the first) */
static inline long long uct_row_delta(const struct uct_model *m, const struct uct_row *r,
				      int type)
{
	return r->delta >= 0 ? m->deltas[r->delta][type] : 0;
}

/* The user name of a row's uid in its own namespace (rec.ns_uid) as that
 * namespace's passwd file has it; NULL: none (no file known, no such
 * line, or a uid the namespace does not map) */
const char *uct_row_ns_user(const struct uct_model *m, const struct uct_row *r);
/* The name of the uid a row is shown by (uct_row_uid()): the above, or
 * with show_kuid the initial namespace's name of the kuid */
const char *uct_row_user(const struct uct_model *m, const struct uct_row *r);
/* What of row r's shares (uct_share) is in no container's cgroup, summed
 * into *other (shares.c; no cgroup, container or pid) */
void uct_row_other_share(const struct uct_model *m, const struct uct_row *r,
			 struct uct_share *other);

/* The page shift: 12 (4 KiB) unless set, and never one past 1 GiB pages. */
static inline int uct_page_shift(const struct uct_model *m)
{
	return m->page_shift > 0 && m->page_shift <= 30 ? m->page_shift : 12;
}

/* A MEMLOCK amount (pages) in bytes, saturated just short of LLONG_MAX,
 * which stays: it means unlimited. Inline: every line of a table has
 * two. */
static inline long long uct_pages_to_bytes(const struct uct_model *m, long long pages)
{
	int shift = uct_page_shift(m);
	long long most = (LLONG_MAX - 1) >> shift;

	if (pages == LLONG_MAX)
		return pages;
	if (pages > most)
		return LLONG_MAX - 1;
	if (pages < -most)
		return -(LLONG_MAX - 1);
	/* a left shift of a negative value is undefined */
	return pages * (1LL << shift);
}

/* Flag names: "denials", "over_limit", "imbalanced", "new". */
const char *uct_flag_name(unsigned flag);

#endif /* UCT_MODEL_H */
