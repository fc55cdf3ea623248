// SPDX-License-Identifier: GPL-2.0
/*
 * uct-demo: the scenario that motivated per-user-namespace rlimits, held
 * live for `make run`. The same uid (1000) runs the same service in two
 * containers (sibling user namespaces created by root), under
 * RLIMIT_NPROC=1. Counted per (namespace, uid), each container's service
 * gets its one process, so both rows read 1/1; every few seconds each
 * service tries to start a second worker, which the kernel refuses
 * (EAGAIN) and ucounttop counts as a denial. Their parent row (root in
 * the initial namespace, the creator of both) carries both charges.
 *
 * Each container is named as a container runtime would leave it: its own
 * UTS namespace with the service's hostname ("web", "db") and a cgroup
 * such as Docker's (/sys/fs/cgroup/system.slice/docker-<id>.scope), so
 * the view can name the namespaces (uct-container.h). Without cgroup2
 * mounted the demo runs without the cgroups.
 *
 * And the common case, containers in the host's user namespace: uid 2000
 * runs "api" (2 processes, a Docker-style cgroup) and "worker" (1, a
 * containerd-style one) under RLIMIT_NPROC=3, one row shared by both;
 * the worker's attempts at a second process are refused, and the view
 * splits the row by container and puts the refusals on the worker.
 *
 * Usage: uct-demo [SECONDS between attempts, default 5]
 * Runs until SIGTERM/SIGINT; a line per event goes to stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "uct-container.h"

#define SERVICE_UID 1000

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The container's service: one process, trying for a second now and then. */
static void service(const char *name, int interval)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			printf("%s: second worker started (limit not enforced?)\n", name);
		} else {
			printf("%s: second worker refused: %s\n", name, strerror(errno));
		}
		fflush(stdout);
		sleep(interval);
	}
}

/*
 * Start one container: a user namespace mapping uid/gid 0 and 1000 to
 * themselves, with a UTS namespace whose hostname is the container's
 * name, in the cgroup of container id id.
 */
static pid_t container(const char *name, const char *id, int interval)
{
	struct rlimit one = { 1, 1 };
	char path[64], map[32];
	int go[2];
	pid_t pid;
	char c;

	if (pipe(go))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid_t parent = getppid();

		close(go[1]);
		if (setrlimit(RLIMIT_NPROC, &one) || unshare(CLONE_NEWUSER)) {
			perror("uct-demo: setrlimit/unshare");
			_exit(1);
		}
		/* still root of the new user namespace: a host name of its own */
		if (uct_own_hostname(name)) {
			perror("uct-demo: hostname");
			_exit(1);
		}
		/* wait for the parent to write our uid and gid maps */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		if (setresgid(SERVICE_UID, SERVICE_UID, SERVICE_UID) ||
		    setresuid(SERVICE_UID, SERVICE_UID, SERVICE_UID)) {
			perror("uct-demo: setresuid");
			_exit(1);
		}
		/* die with the demo: set only now, as a change of credentials
		 * clears it; and the demo may have gone meanwhile */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(1);
		printf("%s: service running as uid %d in its own user namespace\n",
		       name, SERVICE_UID);
		fflush(stdout);
		service(name, interval);
	}
	close(go[0]);
	/* the child must have unshared before its maps can be written */
	for (int i = 0; i < 100; i++) {
		char self[64], other[64];
		ssize_t a, b;

		snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
		a = readlink(path, other, sizeof(other) - 1);
		b = readlink("/proc/self/ns/user", self, sizeof(self) - 1);
		if (a > 0 && b > 0 && (a != b || memcmp(self, other, a)))
			break;
		usleep(10000);
	}
	/*
	 * Root too, as a rootful runtime maps it: the container's root made
	 * its UTS namespace, which stays charged to (namespace, root), a row
	 * the view would otherwise show as an unmapped "-(k0)".
	 */
	snprintf(map, sizeof(map), "0 0 1\n%d %d 1\n", SERVICE_UID, SERVICE_UID);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	if (write_file(path, map))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/setgroups", pid);
	write_file(path, "deny\n");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	if (write_file(path, map))
		return -1;
	/* no cgroup2 (ENOENT): a container without a cgroup, still named */
	if (uct_container_enter("docker", id, pid, NULL, 0) && errno != ENOENT)
		fprintf(stderr, "uct-demo: container %s's cgroup: %s\n", name, strerror(errno));
	if (uct_container_name("docker", id, name))
		fprintf(stderr, "uct-demo: container %s's name: %s\n", name, strerror(errno));
	if (write(go[1], "g", 1) != 1)
		return -1;
	close(go[1]);
	return pid;
}

#define SHARED_UID 2000

/*
 * A container in the host's user namespace as uid SHARED_UID under
 * RLIMIT_NPROC=3: nproc processes in the cgroup runtime kind gives
 * container id; with interval, its first tries for one more now and then.
 */
static pid_t host_container(const char *name, const char *kind, const char *id, int nproc,
			    int interval)
{
	struct rlimit three = { 3, 3 };
	pid_t parent = getpid(), pid;
	int k;

	/* docker's name, or a pod's namespace/pod/container */
	if (uct_container_name(kind, id, name))
		fprintf(stderr, "uct-demo: container %s's name: %s\n", name, strerror(errno));
	pid = fork();
	if (pid)
		return pid;
	if ((uct_container_enter(kind, id, 0, NULL, 0) && errno != ENOENT) ||
	    setrlimit(RLIMIT_NPROC, &three) || setgroups(0, NULL) ||
	    setresgid(SHARED_UID, SHARED_UID, SHARED_UID) ||
	    setresuid(SHARED_UID, SHARED_UID, SHARED_UID) || prctl(PR_SET_PDEATHSIG, SIGTERM) ||
	    getppid() != parent) {
		perror("uct-demo: a container in the host's namespace");
		_exit(1);
	}
	for (k = 1; k < nproc; k++) {
		pid_t me = getpid();

		if (fork() == 0) {
			/* dies with its container's first process */
			if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != me)
				_exit(1);
			for (;;)
				pause();
		}
	}
	printf("%s: %d processes as uid %d in the host's user namespace\n", name, nproc,
	       SHARED_UID);
	fflush(stdout);
	if (interval)
		service(name, interval);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int interval = argc > 1 ? atoi(argv[1]) : 5;
	pid_t a, b;

	if (interval <= 0) {
		fprintf(stderr, "usage: uct-demo [SECONDS between attempts]\n");
		return 2;
	}
	a = container("web", "4e1f0c2a9b7d3e58c6a1f2b3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b",
		      interval);
	b = container("db", "9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b",
		      interval);
	if (a < 0 || b < 0) {
		perror("uct-demo: starting the containers");
		return 1;
	}
	/* api's two processes first: then the worker's second is the
	 * fourth of uid 2000, over 3 */
	if (host_container("api", "docker",
			   "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90", 2,
			   0) < 0) {
		perror("uct-demo: starting api");
		return 1;
	}
	sleep(1);
	if (host_container("shop/worker-7d4b9/worker", "containerd",
			   "f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f", 1,
			   interval) < 0) {
		perror("uct-demo: starting worker");
		return 1;
	}
	/* Hold until told to stop; the containers die with us (PDEATHSIG). */
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
