/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uct-container.h - make a process look like a container's to ucounttop:
 * put it in a cgroup v2 named as a container runtime names its
 * containers' cgroups, write down its name where its engine does, and
 * give it a hostname of its own. For the guest
 * helpers (uct-workload --names and --container; the demo may include it
 * too). Needs root in the initial namespaces and cgroup2 mounted at
 * /sys/fs/cgroup (guest/init mounts it).
 */
#ifndef UCT_CONTAINER_H
#define UCT_CONTAINER_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UCT_CGROUP_ROOT "/sys/fs/cgroup"

/*
 * The cgroup path (under the cgroup2 root) a runtime gives container id:
 *   docker      /system.slice/docker-<id>.scope   (systemd cgroup driver)
 *   dockerfs    /docker/<id>                      (cgroupfs driver)
 *   podman      /machine.slice/libpod-<id>.scope/container
 *   containerd  /kubepods.slice/.../cri-containerd-<id>.scope
 *   crio        /kubepods.slice/.../crio-<id>.scope
 * 0, or -1 for an unknown kind.
 */
static inline int uct_container_path(const char *kind, const char *id, char *path, size_t len)
{
	static const struct { const char *kind, *fmt; } runtimes[] = {
		{ "docker", "/system.slice/docker-%s.scope" },
		{ "dockerfs", "/docker/%s" },
		{ "podman", "/machine.slice/libpod-%s.scope/container" },
		{ "containerd", "/kubepods.slice/kubepods-besteffort.slice/"
				"kubepods-besteffort-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice/"
				"cri-containerd-%s.scope" },
		{ "crio", "/kubepods.slice/kubepods-burstable.slice/crio-%s.scope" },
	};
	size_t i;

	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		if (strcmp(kind, runtimes[i].kind))
			continue;
		snprintf(path, len, runtimes[i].fmt, id);
		return 0;
	}
	errno = EINVAL;
	return -1;
}

/* mkdir -p dir (an absolute path) */
static inline int uct_mkdir_p(const char *dir)
{
	char d[512];
	size_t i, n = (size_t)snprintf(d, sizeof(d), "%s", dir);

	if (n >= sizeof(d)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (i = 1; i <= n; i++) {
		if (d[i] != '/' && d[i])
			continue;
		d[i] = 0;
		if (mkdir(d, 0755) && errno != EEXIST)
			return -1;
		if (i < n)
			d[i] = '/';
	}
	return 0;
}

/* mkdir -p UCT_CGROUP_ROOT/path */
static inline int uct_cgroup_mkdir(const char *path)
{
	char dir[512];

	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", UCT_CGROUP_ROOT, path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return uct_mkdir_p(dir);
}

/*
 * Move process pid (0: the caller) into container id's cgroup as runtime
 * kind names it, creating it; the path goes to path (if not NULL).
 * 0, or -1 with errno (ENOENT: no cgroup2 at UCT_CGROUP_ROOT).
 */
static inline int uct_container_enter(const char *kind, const char *id, pid_t pid, char *path,
				      size_t len)
{
	char cg[512], file[600], text[16];
	int fd, n;
	ssize_t w;

	if (access(UCT_CGROUP_ROOT "/cgroup.procs", F_OK))
		return -1;
	if (uct_container_path(kind, id, cg, sizeof(cg)) || uct_cgroup_mkdir(cg))
		return -1;
	snprintf(file, sizeof(file), "%s%s/cgroup.procs", UCT_CGROUP_ROOT, cg);
	fd = open(file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(text, sizeof(text), "%d", (int)pid);
	w = write(fd, text, (size_t)n);
	close(fd);
	if (w != n)
		return -1;
	if (path)
		snprintf(path, len, "%s", cg);
	return 0;
}

/*
 * What the engine of runtime kind writes down about container id, for
 * ucounttop to name it by: Docker's config.v2.json with its name (docker,
 * dockerfs: name is "web"), or the OCI bundle's config.json with the
 * annotations of containerd's CRI plugin (containerd) or CRI-O's (crio):
 * name is "namespace/pod/container". 0, or -1 with errno.
 */
static inline int uct_container_name(const char *kind, const char *id, const char *name)
{
	char dir[512], file[600], ns[64], pod[254], ctr[64];
	bool cri = !strcmp(kind, "containerd"), crio = !strcmp(kind, "crio");
	FILE *f;

	if (!strcmp(kind, "docker") || !strcmp(kind, "dockerfs"))
		snprintf(dir, sizeof(dir), "/var/lib/docker/containers/%s", id);
	else if (cri)
		snprintf(dir, sizeof(dir), "/run/containerd/io.containerd.runtime.v2.task/k8s.io/%s", id);
	else if (crio)
		snprintf(dir, sizeof(dir), "/run/containers/storage/overlay-containers/%s/userdata", id);
	else
		return errno = EINVAL, -1;
	if ((cri || crio) && sscanf(name, "%63[^/]/%253[^/]/%63s", ns, pod, ctr) != 3)
		return errno = EINVAL, -1;
	snprintf(file, sizeof(file), "%s/%s", dir, cri || crio ? "config.json" : "config.v2.json");
	if (uct_mkdir_p(dir) || !(f = fopen(file, "we")))
		return -1;
	if (cri)
		fprintf(f, "{\"ociVersion\":\"1.1.0\",\"annotations\":{"
			"\"io.kubernetes.cri.container-type\":\"container\","
			"\"io.kubernetes.cri.sandbox-namespace\":\"%s\","
			"\"io.kubernetes.cri.sandbox-name\":\"%s\","
			"\"io.kubernetes.cri.container-name\":\"%s\"}}\n", ns, pod, ctr);
	else if (crio)
		fprintf(f, "{\"ociVersion\":\"1.1.0\",\"annotations\":{"
			"\"io.kubernetes.cri-o.ContainerType\":\"container\","
			"\"io.kubernetes.pod.namespace\":\"%s\",\"io.kubernetes.pod.name\":\"%s\","
			"\"io.kubernetes.container.name\":\"%s\"}}\n", ns, pod, ctr);
	else
		fprintf(f, "{\"ID\":\"%s\",\"Name\":\"/%s\",\"Driver\":\"vfs\"}\n", id, name);
	return fclose(f) ? -1 : 0;
}

/* A UTS namespace of the caller's own, named hostname: inside a user
 * namespace it created, or as root */
static inline int uct_own_hostname(const char *hostname)
{
	if (unshare(CLONE_NEWUTS))
		return -1;
	return sethostname(hostname, strlen(hostname));
}

#endif /* UCT_CONTAINER_H */
