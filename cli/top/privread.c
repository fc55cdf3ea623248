// SPDX-License-Identifier: GPL-2.0
/* privread.c - other users' processes read by a helper (privread.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "privread.h"

struct cgroup_answer {
	__s32 rc;
	__u32 trusted;			/* bytes of the path root made */
	__u32 tenant;			/* the owner of what follows them */
	char path[PATH_MAX];
};

/* UCT_PR_PODMAN_STORAGE's answer, the file's bytes after it */
struct podman_answer {
	__s32 rc;
	char user[UCT_TENANT_NAME_MAX + 1];
};

struct row_answer {
	__s32 rc;
	__u32 ns_inum, uid;
};

/* Where cgroup2 is mounted whole, as this process's cgroup namespace
 * shows the mounts' roots */
static void find_cgroup_mnt(struct uct_privread_cfg *cfg)
{
	char *text = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	cfg->have_mnt = false;
	if (!f)
		return;
	/* the whole file: one line per mount */
	if (getdelim(&text, &cap, 0, f) > 0)
		cfg->have_mnt = !uct_parse_cgroup2_mount(text, cfg->cgroup_mnt,
							 sizeof(cfg->cgroup_mnt));
	free(text);
	fclose(f);
}

void uct_privread_cfg_init(struct uct_privread_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->proc = "/proc";
	cfg->own = "/etc/passwd";
	cfg->docker_root = "/var/lib/docker";
	cfg->containerd_bundles = "/run/containerd/io.containerd.runtime.v2.task/k8s.io";
	cfg->crio_containers = "/run/containers/storage/overlay-containers";
	find_cgroup_mnt(cfg);
}

int uct_privread_host_cgroupns(struct uct_privread_cfg *cfg, char *msg, size_t len)
{
	struct stat self, init;
	int fd;

	if (stat("/proc/self/ns/cgroup", &self) || stat("/proc/1/ns/cgroup", &init) ||
	    (self.st_dev == init.st_dev && self.st_ino == init.st_ino))
		return 0;
	fd = open("/proc/1/ns/cgroup", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWCGROUP)) {
		snprintf(msg, len, "entering the host's cgroup namespace (/proc/1/ns/cgroup): %s: "
			 "no container is named", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	find_cgroup_mnt(cfg);
	return 1;
}

static size_t serve_passwd(const struct uct_privread_cfg *cfg, const struct uct_privread_req *q,
			   char *reply, size_t max)
{
	struct uct_privread_passwd a = { .rc = -1 };
	char *text = NULL;
	size_t len = 0;
	bool whole = false;

	a.rc = uct_passwd_read(cfg->proc, cfg->own, &q->src, q->have_known ? &q->known : NULL,
			       &a.id, &text, &len, &whole);
	if (a.rc == 0) {
		if (len > max - sizeof(a))
			len = max - sizeof(a);
		a.len = len;
		a.whole = whole;
		memcpy(reply + sizeof(a), text, len);
	}
	free(text);
	memcpy(reply, &a, sizeof(a));
	return sizeof(a) + (size_t)a.len;
}

/*
 * Where a namespace's oldest process is: the cgroup v2 path in
 * /proc/PID/cgroup. The process may have moved, or exited and its pid
 * gone to another, since the iterator saw it: with cgroup2 mounted
 * whole, the path must be the directory of that cgroup id (a kernfs id
 * is the directory's inode number), or it is not taken.
 */
static size_t serve_cgroup(const struct uct_privread_cfg *cfg, const struct uct_privread_req *q,
			   char *reply)
{
	struct cgroup_answer *a = (struct cgroup_answer *)reply;
	char full[2 * PATH_MAX];
	struct stat st;

	memset(a, 0, sizeof(*a));
	a->rc = -1;
	a->tenant = UCT_NO_UID;
	if (uct_read_task_cgroup(cfg->proc, (int)q->pid, a->path, sizeof(a->path)))
		return sizeof(*a);
	if (cfg->have_mnt) {
		snprintf(full, sizeof(full), "%s%s", cfg->cgroup_mnt, a->path);
		if (stat(full, &st) || (__u64)st.st_ino != q->cgroup_id)
			return sizeof(*a);
		a->trusted = (__u32)uct_cgroup_owned_prefix(cfg->cgroup_mnt, a->path, 0,
							    &a->tenant);
	}
	a->rc = 0;
	return sizeof(*a);
}

static size_t serve_task_limits(const struct uct_privread_cfg *cfg, char *reply, size_t max)
{
	struct uct_task_limits *tl = NULL;
	__s32 rc;
	size_t n = 0;

	rc = uct_read_task_limits(cfg->proc, &tl, &n);
	if (rc)
		n = 0;
	/* the first ones that fit: the rest show "-" this time */
	if (n > (max - sizeof(rc)) / sizeof(*tl))
		n = (max - sizeof(rc)) / sizeof(*tl);
	memcpy(reply, &rc, sizeof(rc));
	if (n)
		memcpy(reply + sizeof(rc), tl, n * sizeof(*tl));
	free(tl);
	return sizeof(rc) + n * sizeof(*tl);
}

/* An engine's JSON file about a container, at most 256 KiB */
#define ENGINE_FILE_MAX	(256u << 10)

/* The bytes of the file fmt names for container cid (checked: 64 hex
 * digits, so the path stays in the engine's directory) after rc */
static size_t serve_engine_file(const struct uct_privread_req *q, char *reply, size_t max,
				const char *fmt, const char *dir)
{
	char path[PATH_MAX], id[UCT_CID_LEN + 1];
	__s32 rc = -1;
	size_t n = 0;
	FILE *f;

	memcpy(id, q->cid, sizeof(id));
	id[UCT_CID_LEN] = 0;
	if (strlen(id) == UCT_CID_LEN && strspn(id, "0123456789abcdef") == UCT_CID_LEN &&
	    (size_t)snprintf(path, sizeof(path), fmt, dir, id) < sizeof(path) &&
	    (f = fopen(path, "re"))) {
		if (max - sizeof(rc) > ENGINE_FILE_MAX)
			max = ENGINE_FILE_MAX + sizeof(rc);
		n = fread(reply + sizeof(rc), 1, max - sizeof(rc), f);
		rc = ferror(f) ? -1 : 0;
		fclose(f);
	}
	if (rc)
		n = 0;
	memcpy(reply, &rc, sizeof(rc));
	return sizeof(rc) + n;
}

/* Whether a directory's name is uid.gid: where a Docker daemon with
 * --userns-remap keeps its state, below its data root */
static bool remapped_root(const char *name)
{
	size_t a = strspn(name, "0123456789"), b;

	if (!a || name[a] != '.')
		return false;
	b = strspn(name + a + 1, "0123456789");
	return b && !name[a + 1 + b];
}

/* Docker's config.v2.json for the container: in the data root, else in
 * a remapped daemon's uid.gid directory below it */
static size_t serve_docker_config(const struct uct_privread_cfg *cfg,
				  const struct uct_privread_req *q, char *reply, size_t max)
{
	size_t n = serve_engine_file(q, reply, max, "%s/containers/%s/config.v2.json",
				     cfg->docker_root);
	char dir[PATH_MAX];
	struct dirent *e;
	__s32 rc;
	DIR *d;

	memcpy(&rc, reply, sizeof(rc));
	if (!rc || !(d = opendir(cfg->docker_root)))
		return n;
	while ((e = readdir(d))) {
		if (!remapped_root(e->d_name) ||
		    (size_t)snprintf(dir, sizeof(dir), "%s/%s", cfg->docker_root, e->d_name) >=
			    sizeof(dir))
			continue;
		n = serve_engine_file(q, reply, max, "%s/containers/%s/config.v2.json", dir);
		memcpy(&rc, reply, sizeof(rc));
		if (!rc)
			break;
	}
	closedir(d);
	return n;
}

/* A Kubernetes container's bundle: containerd's task's, else CRI-O's */
static size_t serve_bundle_config(const struct uct_privread_cfg *cfg,
				  const struct uct_privread_req *q, char *reply, size_t max)
{
	size_t n = serve_engine_file(q, reply, max, "%s/%s/config.json", cfg->containerd_bundles);
	__s32 rc;

	memcpy(&rc, reply, sizeof(rc));
	if (!rc)
		return n;
	return serve_engine_file(q, reply, max, "%s/%s/userdata/config.json",
				 cfg->crio_containers);
}

/* A user's rootless Podman's containers.json: at most 1 MiB (some 2,000
 * containers) */
#define PODMAN_FILE_MAX	(1u << 20)

/*
 * The containers.json in uid's Podman's storage, if uid owns it: the
 * user's home is the user's to point anywhere (a symbolic link to
 * another user's file, a FIFO, a device), so the file is opened without
 * following a last link or waiting, and read only when it is a regular
 * file of uid's. With the user's name from the host's passwd.
 */
static size_t serve_podman_storage(const struct uct_privread_cfg *cfg,
				   const struct uct_privread_req *q, char *reply, size_t max)
{
	static const char *const drivers[] = { "overlay", "vfs" };
	struct podman_answer *a = (struct podman_answer *)reply;
	struct passwd pw, *found = NULL;
	char buf[4096], path[PATH_MAX];
	size_t n = 0, i, want;
	struct stat st;
	ssize_t got;
	int fd = -1;

	memset(a, 0, sizeof(*a));
	a->rc = -1;
	if (getpwuid_r((uid_t)q->uid, &pw, buf, sizeof(buf), &found) || !found ||
	    strlen(pw.pw_name) > UCT_TENANT_NAME_MAX || !pw.pw_dir)
		return sizeof(*a);
	strcpy(a->user, pw.pw_name);
	for (i = 0; i < sizeof(drivers) / sizeof(drivers[0]) && fd < 0; i++) {
		if ((size_t)snprintf(path, sizeof(path),
				     "%s/.local/share/containers/storage/%s-containers/containers.json",
				     cfg->podman_home ? cfg->podman_home : pw.pw_dir, drivers[i]) >=
		    sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != q->uid)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return sizeof(*a);
	want = max - sizeof(*a) < PODMAN_FILE_MAX ? max - sizeof(*a) : PODMAN_FILE_MAX;
	while (n < want && (got = read(fd, reply + sizeof(*a) + n, want - n)) > 0)
		n += (size_t)got;
	close(fd);
	a->rc = 0;
	return sizeof(*a) + n;
}

size_t uct_privread_serve(void *arg, const void *req, size_t len, void *reply, size_t max)
{
	const struct uct_privread_cfg *cfg = arg;
	struct uct_privread_req q;
	struct row_answer *ra = reply;
	__s32 bad = -1;

	if (len != sizeof(q) || max < sizeof(struct cgroup_answer) ||
	    max < sizeof(struct uct_privread_passwd) + UCT_PASSWD_MAX_SIZE) {
		memcpy(reply, &bad, sizeof(bad));
		return sizeof(bad);
	}
	memcpy(&q, req, sizeof(q));
	switch (q.op) {
	case UCT_PR_PASSWD:
		return serve_passwd(cfg, &q, reply, max);
	case UCT_PR_CGROUP:
		return serve_cgroup(cfg, &q, reply);
	case UCT_PR_TASK_ROW:
		memset(ra, 0, sizeof(*ra));
		ra->rc = uct_read_task_row(cfg->proc, (int)q.pid, &ra->ns_inum, &ra->uid);
		return sizeof(*ra);
	case UCT_PR_TASK_LIMITS:
		return serve_task_limits(cfg, reply, max);
	case UCT_PR_DOCKER_CONFIG:
		return serve_docker_config(cfg, &q, reply, max);
	case UCT_PR_BUNDLE_CONFIG:
		return serve_bundle_config(cfg, &q, reply, max);
	case UCT_PR_PODMAN_STORAGE:
		return serve_podman_storage(cfg, &q, reply, max);
	}
	memcpy(reply, &bad, sizeof(bad));
	return sizeof(bad);
}

int uct_privread_init(struct uct_privread *p, const struct uct_privread_cfg *cfg)
{
	memset(p, 0, sizeof(*p));
	p->reply = malloc(UCT_PRIVREAD_REPLY_MAX);
	if (!p->reply)
		return -ENOMEM;
	uct_helper_init(&p->helper, uct_privread_serve, (void *)cfg,
			sizeof(struct uct_privread_req), UCT_PRIVREAD_REPLY_MAX);
	return 0;
}

void uct_privread_free(struct uct_privread *p)
{
	uct_helper_close(&p->helper);
	free(p->reply);
	p->reply = NULL;
}

int uct_privread_call(struct uct_privread *p, const struct uct_privread_req *q, size_t *n,
		      double deadline_s)
{
	return uct_helper_call(&p->helper, q, sizeof(*q), p->reply, n, deadline_s);
}

int uct_privread_cgroup(void *arg, __u32 pid, __u64 id, char *path, size_t len, size_t *trusted,
			__u32 *tenant)
{
	struct uct_privread *p = arg;
	struct uct_privread_req q = { .op = UCT_PR_CGROUP, .pid = pid, .cgroup_id = id };
	struct cgroup_answer a;
	size_t n, plen;

	*trusted = 0;
	if (uct_privread_call(p, &q, &n, UCT_PRIVREAD_DEADLINE) || n != sizeof(a))
		return -1;
	memcpy(&a, p->reply, sizeof(a));
	plen = strnlen(a.path, sizeof(a.path));
	if (a.rc || plen == sizeof(a.path) || plen >= len)
		return -1;
	memcpy(path, a.path, plen + 1);
	*trusted = a.trusted <= plen ? a.trusted : 0;
	*tenant = a.tenant;
	return 0;
}

int uct_privread_task_row(struct uct_privread *p, int pid, __u32 *ns_inum, __u32 *uid)
{
	struct uct_privread_req q = { .op = UCT_PR_TASK_ROW, .pid = (__u32)pid };
	struct row_answer a;
	size_t n;

	if (uct_privread_call(p, &q, &n, UCT_PRIVREAD_DEADLINE) || n != sizeof(a))
		return -1;
	memcpy(&a, p->reply, sizeof(a));
	if (a.rc)
		return -1;
	*ns_inum = a.ns_inum;
	*uid = a.uid;
	return 0;
}

int uct_privread_task_limits(struct uct_privread *p, struct uct_task_limits **out, size_t *n)
{
	struct uct_privread_req q = { .op = UCT_PR_TASK_LIMITS };
	size_t len, k;
	__s32 rc;
	int err;

	*out = NULL;
	*n = 0;
	err = uct_privread_call(p, &q, &len, UCT_PRIVREAD_SCAN_DEADLINE);
	if (err)
		return err;
	if (len < sizeof(rc) || (len - sizeof(rc)) % sizeof(**out))
		return -EPROTO;
	memcpy(&rc, p->reply, sizeof(rc));
	if (rc)
		return rc < 0 ? rc : -EIO;
	k = (len - sizeof(rc)) / sizeof(**out);
	*out = malloc(k ? k * sizeof(**out) : 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, p->reply + sizeof(rc), k * sizeof(**out));
	*n = k;
	return 0;
}

/* The bytes of an engine's file about container cid (q: which one, for
 * whom), in p->reply after the answer's head (head_len bytes, copied to
 * head, its __s32 rc first), their length in *len; NULL when the helper
 * read none */
static const char *engine_file(struct uct_privread *p, struct uct_privread_req *q,
			       const char *cid, void *head, size_t head_len, size_t *len)
{
	size_t n;
	__s32 rc;

	snprintf(q->cid, sizeof(q->cid), "%s", cid);
	if (uct_privread_call(p, q, &n, UCT_PRIVREAD_DEADLINE) || n < head_len)
		return NULL;
	memcpy(head, p->reply, head_len);
	memcpy(&rc, head, sizeof(rc));
	if (rc)
		return NULL;
	*len = n - head_len;
	return p->reply + head_len;
}

int uct_privread_docker_name(void *arg, const char *cid, char name[UCT_CNAME_MAX + 1])
{
	struct uct_privread_req q = { .op = UCT_PR_DOCKER_CONFIG };
	const char *text;
	size_t n;
	__s32 rc;

	name[0] = 0;
	text = engine_file(arg, &q, cid, &rc, sizeof(rc), &n);
	return text && uct_docker_name(text, n, name) ? 0 : -1;
}

int uct_privread_cri(void *arg, const char *cid, struct uct_kube *k)
{
	struct uct_privread_req q = { .op = UCT_PR_BUNDLE_CONFIG };
	const char *text;
	size_t n;
	__s32 rc;

	memset(k, 0, sizeof(*k));
	text = engine_file(arg, &q, cid, &rc, sizeof(rc), &n);
	return text && uct_cri_identity(text, n, k) ? 0 : -1;
}

int uct_privread_podman_name(void *arg, __u32 uid, const char *cid,
			     char name[UCT_TENANT_CNAME_MAX + 1])
{
	struct uct_privread_req q = { .op = UCT_PR_PODMAN_STORAGE, .uid = uid };
	char own[UCT_CNAME_MAX + 1];
	struct podman_answer a;
	const char *text;
	size_t n;

	name[0] = 0;
	text = engine_file(arg, &q, cid, &a, sizeof(a), &n);
	if (!text || !uct_podman_name(text, n, cid, own))
		return -1;
	a.user[UCT_TENANT_NAME_MAX] = 0;
	snprintf(name, UCT_TENANT_CNAME_MAX + 1, "%s:%s", a.user, own);
	return uct_tenant_cname_ok(name, strlen(name)) ? 0 : -1;
}
