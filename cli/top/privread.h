/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privread.h - what the live view and --listen read about other users'
 * processes, read by a helper process (helper.h) with a deadline.
 *
 * Each read takes privilege (CAP_SYS_PTRACE for /proc/PID/ns/ and root/,
 * CAP_DAC_READ_SEARCH for tenants' directories and a /proc that hides
 * others' processes) and some can wait forever (a tenant's FUSE under
 * its /etc). The helper does the reading and no parsing of what tenants
 * wrote: a passwd file comes back as its bytes, a cgroup path as the
 * kernel wrote it; the caller parses them. Where the caller gave up its
 * privileges, the helpers are made by the spawner (spawner.h), which
 * kept them: uct_helper_use_spawner() on p->helper.
 *
 * The requests: a passwd file (uct_passwd_read()); the cgroup v2 path
 * of a process, checked against the cgroup id the iterator saw, and how
 * much of it root made; the row a process charges (--pid); every
 * process's rlimits (when the task iterator is missing); a Docker
 * container's config.v2.json, by the container id (which names its
 * name); a Kubernetes container's OCI bundle config.json, containerd's
 * or CRI-O's, by the container id (its annotations name its pod); a
 * user's rootless Podman's containers.json, by the user's uid, with the
 * user's name (the host's passwd, which root writes).
 */
#ifndef UCT_PRIVREAD_H
#define UCT_PRIVREAD_H

#include <limits.h>
#include <stdbool.h>
#include "cgroups.h"
#include "helper.h"
#include "proc_limits.h"
#include "users.h"

enum uct_privread_op {
	UCT_PR_PASSWD = 1,
	UCT_PR_CGROUP,
	UCT_PR_TASK_ROW,
	UCT_PR_TASK_LIMITS,
	UCT_PR_DOCKER_CONFIG,
	UCT_PR_BUNDLE_CONFIG,
	UCT_PR_PODMAN_STORAGE,
};

/* What every helper reads with: set before the first helper is made */
struct uct_privread_cfg {
	const char *proc, *own;		/* as for uct_passwd_read() */
	const char *docker_root;	/* Docker's data root, /var/lib/docker */
	const char *containerd_bundles;	/* containerd's CRI tasks' bundles */
	const char *crio_containers;	/* CRI-O's containers' directories */
	const char *podman_home;	/* NULL: a user's home in passwd (tests:
					 * another, for every user) */
	char cgroup_mnt[PATH_MAX];	/* where cgroup2 is mounted whole */
	bool have_mnt;
};

struct uct_privread_req {
	__u32 op, pid;
	__u64 cgroup_id;
	struct uct_pwsrc src;		/* UCT_PR_PASSWD */
	__u32 have_known;
	struct uct_file_id known;
	char cid[UCT_CID_LEN + 1];	/* UCT_PR_DOCKER_CONFIG, _BUNDLE_CONFIG */
	__u32 uid;			/* UCT_PR_PODMAN_STORAGE */
};

/* UCT_PR_PASSWD's answer, the text's bytes after it */
struct uct_privread_passwd {
	__s32 rc;			/* uct_passwd_read()'s */
	__u32 whole;
	struct uct_file_id id;
	__u64 len;
};

#define UCT_PRIVREAD_REPLY_MAX	(4u << 20)	/* 100,000 processes' rlimits */
#define UCT_PRIVREAD_DEADLINE	0.25		/* what a tenant may cost a read */
#define UCT_PRIVREAD_SCAN_DEADLINE 5.0		/* every process's rlimits */

/* cfg for the tool: /proc, /etc/passwd, cgroup2's mount point */
void uct_privread_cfg_init(struct uct_privread_cfg *cfg);

/*
 * In a container with the host's PID namespace but a cgroup namespace of
 * its own (a Kubernetes pod's, on cgroup v2), other processes' cgroup
 * paths read relative to that namespace, and no container is named.
 * When /proc/1's cgroup namespace (the host's, with hostPID) is not
 * ours: enter it (CAP_SYS_ADMIN), then find cgroup2 mounted whole again
 * (the host's /sys/fs/cgroup, mounted into the container, is, from the
 * host's namespace). 1 entered, 0 nothing to do, -1 with msg.
 */
int uct_privread_host_cgroupns(struct uct_privread_cfg *cfg, char *msg, size_t len);

/* The helpers' side (a uct_helper_serve_fn; arg: the cfg) */
size_t uct_privread_serve(void *arg, const void *req, size_t len, void *reply, size_t max);

/* The caller's side */
struct uct_privread {
	struct uct_helper helper;
	char *reply;			/* the last answer, UCT_PRIVREAD_REPLY_MAX bytes */
};

/* Helpers forked from the caller, serving cfg. -ENOMEM or 0. */
int uct_privread_init(struct uct_privread *p, const struct uct_privread_cfg *cfg);
void uct_privread_free(struct uct_privread *p);

/* One request; the answer in p->reply, *n bytes. uct_helper_call()'s
 * codes. */
int uct_privread_call(struct uct_privread *p, const struct uct_privread_req *q, size_t *n,
		      double deadline_s);

/* The model's cgroup_fn (arg: the struct uct_privread) */
int uct_privread_cgroup(void *arg, __u32 pid, __u64 id, char *path, size_t len,
			size_t *trusted, __u32 *tenant);
/* uct_read_task_row() and uct_read_task_limits() through the helper */
int uct_privread_task_row(struct uct_privread *p, int pid, __u32 *ns_inum, __u32 *uid);
int uct_privread_task_limits(struct uct_privread *p, struct uct_task_limits **out, size_t *n);
/* The model's docker_name_fn (arg: the struct uct_privread): the name in
 * Docker's config.v2.json of container cid (uct_docker_name()) */
int uct_privread_docker_name(void *arg, const char *cid, char name[UCT_CNAME_MAX + 1]);
/* The model's cri_fn (arg: the struct uct_privread): the pod in the
 * bundle's annotations of container cid (uct_cri_identity()) */
int uct_privread_cri(void *arg, const char *cid, struct uct_kube *k);
/* The model's podman_name_fn (arg: the struct uct_privread): user:name,
 * the name in the containers.json of uid's rootless Podman
 * (uct_podman_name()), in its default place, which only uid may own:
 * ~/.local/share/containers/storage/{overlay,vfs}-containers/ */
int uct_privread_podman_name(void *arg, __u32 uid, const char *cid,
			     char name[UCT_TENANT_CNAME_MAX + 1]);

#endif /* UCT_PRIVREAD_H */
