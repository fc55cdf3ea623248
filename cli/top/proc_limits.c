// SPDX-License-Identifier: GPL-2.0
/*
 * proc_limits.c - per-process rlimits, rows and cgroups from /proc (see
 * proc_limits.h).
 * Plain file reads: no BPF, so the model stays testable on the host.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "proc_limits.h"

/* The kernel charges RLIMIT_MEMLOCK in pages of this machine's size */
static int page_shift(void)
{
	static int shift;

	if (!shift)
		shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	return shift;
}

/* /proc/PID/limits row names, in UCT_* type order. */
static const char *const limit_rows[UCT_NTYPES] = {
	"Max processes", "Max msgqueue size", "Max pending signals", "Max locked memory",
};

int uct_parse_limits(const char *text, long long rlim[UCT_NTYPES])
{
	int t;

	for (t = 0; t < UCT_NTYPES; t++) {
		const char *p = strstr(text, limit_rows[t]);
		char soft[32];

		if (!p || sscanf(p + strlen(limit_rows[t]), " %31s", soft) != 1)
			return -1;
		if (!strcmp(soft, "unlimited"))
			rlim[t] = LLONG_MAX;
		else
			rlim[t] = strtoll(soft, NULL, 10);
		if (t == UCT_MEMLOCK && rlim[t] != LLONG_MAX)
			rlim[t] >>= page_shift();
	}
	return 0;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

/* The row a process charges: its user namespace and real uid */
static int read_row(const char *proc, const char *pid, __u32 *ns_inum, __u32 *uid)
{
	char path[PATH_MAX], buf[4096], link[64];
	const char *p;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/ns/user", proc, pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	if (sscanf(link, "user:[%u]", ns_inum) != 1)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/status", proc, pid);
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nUid:");
	if (!p || sscanf(p + 5, "%u", uid) != 1)
		return -1;
	return 0;
}

int uct_read_task_row(const char *proc, int pid, __u32 *ns_inum, __u32 *uid)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", pid);
	return read_row(proc, name, ns_inum, uid);
}

int uct_read_task_cgroup(const char *proc, int pid, char *path, size_t len)
{
	char file[PATH_MAX], buf[8192];
	const char *p, *end;

	snprintf(file, sizeof(file), "%s/%d/cgroup", proc, pid);
	if (read_text(file, buf, sizeof(buf)))
		return -1;
	/* the unified hierarchy's line is "0::PATH"; v1 lines name controllers */
	for (p = buf; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (strncmp(p, "0::/", 4))
			continue;
		p += 3;
		if ((size_t)(end - p) >= len)
			return -1;
		memcpy(path, p, (size_t)(end - p));
		path[end - p] = 0;
		return 0;
	}
	return -1;
}

size_t uct_cgroup_owned_prefix(const char *mnt, const char *path, uid_t owner, __u32 *tenant)
{
	const char *s = path, *end;
	size_t owned = 0;
	struct stat st;
	int dir = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (tenant)
		*tenant = UCT_NO_UID;
	if (dir < 0)
		return 0;
	if (fstat(dir, &st) || st.st_uid != owner) {
		close(dir);
		return 0;
	}
	/* one component at a time, from the directory above: a path that
	 * changes meanwhile never mixes two directories' owners */
	for (; *s; s = *end ? end + 1 : end) {
		char comp[NAME_MAX + 1];
		size_t n;
		int next;

		end = strchrnul(s, '/');
		n = (size_t)(end - s);
		if (!n)
			continue;
		if (n > NAME_MAX)
			break;
		memcpy(comp, s, n);
		comp[n] = 0;
		next = openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(dir);
		dir = next;
		if (dir < 0 || fstat(dir, &st))
			break;
		if (st.st_uid != owner) {
			if (tenant)
				*tenant = (__u32)st.st_uid;
			break;
		}
		owned = (size_t)(end - path);
	}
	if (dir >= 0)
		close(dir);
	return owned;
}

int uct_parse_cgroup2_mount(const char *mountinfo, char *dir, size_t len)
{
	const char *line, *end;

	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
	for (line = mountinfo; *line; line = *end ? end + 1 : end) {
		char root[8], mnt[512], type[16];
		const char *dash;

		end = strchrnul(line, '\n');
		dash = strstr(line, " - ");
		if (!dash || dash > end || sscanf(dash + 3, "%15s", type) != 1 ||
		    strcmp(type, "cgroup2"))
			continue;
		/* the whole hierarchy, and a plain path (no \040 escapes) */
		if (sscanf(line, "%*s %*s %*s %7s %511s", root, mnt) != 2 || strcmp(root, "/") ||
		    strchr(mnt, '\\') || strlen(mnt) >= len)
			continue;
		/* "/" would make "//path": the caller appends absolute paths */
		snprintf(dir, len, "%s", strcmp(mnt, "/") ? mnt : "");
		return 0;
	}
	return -1;
}

static int read_one(const char *proc, const char *pid, struct uct_task_limits *tl)
{
	char path[PATH_MAX], buf[4096];

	if (read_row(proc, pid, &tl->ns_inum, &tl->uid))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/limits", proc, pid);
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	return uct_parse_limits(buf, tl->rlim);
}

int uct_read_task_limits(const char *proc, struct uct_task_limits **out, size_t *n)
{
	struct uct_task_limits *v = NULL, *nv;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(proc);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 128;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		/* a process that exits meanwhile is simply skipped */
		if (read_one(proc, de->d_name, &v[cnt]) == 0)
			cnt++;
	}
	closedir(d);
	*out = v;
	*n = cnt;
	return 0;
}
