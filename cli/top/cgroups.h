/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroups.h - what a namespace's cgroup says about it: the container id
 * a cgroup path carries, and a cache of cgroup paths by cgroup id, so
 * that a path is looked up once per cgroup, not once per namespace and
 * refresh.
 * Plain C, no /proc here: the tool supplies the lookup (ucounttop.c), the
 * tests a fake one.
 */
#ifndef UCT_CGROUPS_H
#define UCT_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include "cache.h"
#include "kube.h"
#include "common.h"

/* A container id: 64 lowercase hex digits; the table shows the first 12,
 * as `docker ps` does */
#define UCT_CID_LEN	64
#define UCT_CID_SHORT	12

/*
 * The container id in a cgroup v2 path, from the first component that
 * carries one (the outermost: a container inside a container is the
 * outer one, which the engine on the host made; its root could make
 * the inner directories, named after any container):
 *   docker-<id>.scope           docker, systemd cgroup driver
 *   libpod-<id>[.scope]         podman (libpod-conmon-<id> is not one)
 *   cri-containerd-<id>[.scope] containerd under kubernetes, systemd driver
 *   crio-<id>[.scope]           cri-o (crio-conmon-<id> is not one)
 *   <id>                        a bare id: docker's cgroupfs driver
 *                               (/docker/<id>), kubernetes' (/kubepods/...)
 * <id> is exactly UCT_CID_LEN lowercase hex digits. Only the components
 * within path's first trusted bytes count: those a tenant cannot have
 * made (the lookup's judgement; the tool's: directories owned by root,
 * none of them below one that is not - a delegated subtree, where a
 * tenant could make docker-<another container's id>.scope). Copies it to
 * id (NUL-terminated) and returns true, or returns false and leaves id "".
 */
bool uct_container_id(const char *path, size_t trusted, char id[UCT_CID_LEN + 1]);

/*
 * The container id a rootless Podman claims in a tenant's delegated
 * subtree (systemd's user@UID.service, the cgroup an administrator gave
 * a user): the first libpod-<id>[.scope] component past path's first
 * trusted bytes. Only a claim: the tenant made it and could have named
 * it after anyone's container, so it is never matched against an
 * engine root runs, only against the tenant's own Podman's state
 * (uct_podman_name()). Like uct_container_id() otherwise.
 */
bool uct_podman_claim(const char *path, size_t trusted, char id[UCT_CID_LEN + 1]);

/* Whether the component of path that carries container id cid is
 * Docker's: docker-<cid>.scope (systemd driver) or <cid> in a directory
 * named docker (cgroupfs driver, /docker/<cid>) */
bool uct_container_is_docker(const char *path, const char *cid);

/* Whether the component of path that carries container id cid is a
 * Kubernetes runtime's by its prefix: cri-containerd-<cid> or crio-<cid>
 * (with the cgroupfs driver only the pod<UID> above it tells: kube.h) */
bool uct_container_is_cri(const char *path, const char *cid);

/* The longest container name kept (Docker allows more; longer is none) */
#define UCT_CNAME_MAX	63
/* The longest --container value: a pod's container, namespace/pod/name */
#define UCT_CFILTER_MAX	(UCT_KUBE_NS_MAX + 1 + UCT_KUBE_POD_MAX + 1 + UCT_KUBE_CTR_MAX)

/* Whether the n bytes at s are a name Docker gives a container
 * ([a-zA-Z0-9][a-zA-Z0-9_.-]*), 1 to UCT_CNAME_MAX of them */
bool uct_container_name_ok(const char *s, size_t n);

/*
 * The container's name in the text of Docker's config.v2.json for it
 * (/var/lib/docker/containers/<id>/): its top-level "Name" member,
 * "/web", as out ("web", NUL-terminated); a "Name" deeper (a label an
 * image chose) is not it. Only a name Docker accepts
 * ([a-zA-Z0-9][a-zA-Z0-9_.-]*) of at most UCT_CNAME_MAX bytes is taken;
 * false otherwise.
 */
bool uct_docker_name(const char *json, size_t n, char out[UCT_CNAME_MAX + 1]);

/*
 * The name of container cid in the text of a containers/storage
 * containers.json (rootless Podman's, in its user's
 * ~/.local/share/containers/storage/<driver>-containers/): the first of
 * "names" of the top-level array's object whose "id" is cid, if Podman
 * accepts it as a name (uct_container_name_ok()); false otherwise.
 */
bool uct_podman_name(const char *json, size_t n, const char *cid, char out[UCT_CNAME_MAX + 1]);

/* The longest user name in a rootless container's name, user:name, and
 * that name's */
#define UCT_TENANT_NAME_MAX	32
#define UCT_TENANT_CNAME_MAX	(UCT_TENANT_NAME_MAX + 1 + UCT_CNAME_MAX)

/* Whether the n bytes at s are a rootless container's name as shown,
 * user:name: a user name (1 to UCT_TENANT_NAME_MAX of [a-zA-Z0-9_.-],
 * not starting with '-' or '.'), a colon, and a name
 * uct_container_name_ok() takes */
bool uct_tenant_cname_ok(const char *s, size_t n);

/* One cgroup: its path and the container id in it. */
struct uct_cgname {
	__u64 id;		/* cgroup id (kernfs id), never 0 */
	char *path;		/* NULL until looked up, or when that failed */
	const char *cid;	/* in path's allocation; NULL: no container */
	__u32 tenant;		/* 0: cid is in what root made; else the
				 * uid whose subtree claims it (rootless
				 * Podman: uct_podman_claim()) */
	char *cname;		/* the engine's name for it, NULL: none known */
	struct uct_kube *kube;	/* its pod (kube.h), NULL: none known */
	__u32 failed_pid;	/* the lookup through this process failed */
	__u32 failures;		/* lookups failed since the last success */
	double retry_s;		/* a failed lookup may be made again from
				 * then on (the model's clock, s) */
	unsigned long used;	/* generation of the last use */
};

/*
 * A lookup of e through pid failed at now (s). A lookup that missed its
 * deadline on a busy machine is not a container hidden for good: it may
 * be made again after a back-off of 2, 4, 8 .. 64 s, so a cgroup whose
 * lookups always fail costs one a minute. uct_cgname_set() ends it.
 */
void uct_cgname_failed(struct uct_cgname *e, __u32 pid, double now);

/* Whether e's path may be looked up at now (s): never tried, or the last
 * failure's back-off is over */
static inline bool uct_cgname_retry_due(const struct uct_cgname *e, double now)
{
	return !e->failed_pid || now >= e->retry_s;
}

/*
 * Cgroup ids to names: a struct uct_cache (cache.h) of struct uct_cgname
 * entries in their slots. Entries move when the table grows; the strings
 * they point to do not, so a namespace may keep its path and cid
 * pointers until the entry is swept.
 *
 * The entry of cgroup id, made (path NULL) when absent; NULL without
 * memory or for id 0. Marks it used in generation gen.
 */
struct uct_cgname *uct_cgcache_get(struct uct_cache *c, __u64 id, unsigned long gen);
/* Its path (copied) and the container id in its first trusted bytes
 * (uct_container_id()), else, when tenant (the owner of the directory
 * past them) is a user's uid (not 0, not UCT_NO_UID), the one that
 * tenant's Podman claims
 * (uct_podman_claim()); false without memory */
bool uct_cgname_set(struct uct_cgname *e, const char *path, size_t trusted, __u32 tenant);
/* Forget the entries not used since generation gen (their strings too) */
void uct_cgcache_sweep(struct uct_cache *c, unsigned long gen);
void uct_cgcache_free(struct uct_cache *c);

#endif /* UCT_CGROUPS_H */
