// SPDX-License-Identifier: GPL-2.0
/* privs.c - drop what loading needed (privs.h). */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"
#include "privs.h"
#include "seccomp.h"

const uint64_t uct_keep_top = UCT_CAP(CAP_SYS_PTRACE) | UCT_CAP(CAP_DAC_READ_SEARCH);
const uint64_t uct_keep_trace;
const uint64_t uct_keep_check = UCT_CAP(CAP_KILL) | UCT_CAP(CAP_SYSLOG);

/* The highest capability this kernel knows */
static int last_cap(void)
{
	int c = CAP_LAST_CAP;

	/* newer kernels know more than these headers: ask until EINVAL */
	while (c < 63 && prctl(PR_CAPBSET_READ, c + 1, 0, 0, 0) >= 0)
		c++;
	return c;
}

int uct_drop_privileges(uint64_t keep, char *msg, size_t len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	int c, last = last_cap();

	if (syscall(SYS_capget, &hdr, data)) {
		snprintf(msg, len, "reading our capabilities: %s", strerror(errno));
		return -1;
	}
	/* the bounding set first: dropping from it takes CAP_SETPCAP, which
	 * goes next. Without CAP_SETPCAP (capabilities given to a non-root
	 * user) it stays as it is: such a user regains nothing by execve() */
	if (data[0].effective & (1u << CAP_SETPCAP)) {
		for (c = 0; c <= last; c++) {
			if ((keep >> c) & 1)
				continue;
			if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL) {
				snprintf(msg, len, "dropping capability %d from the bounding set: %s",
					 c, strerror(errno));
				return -1;
			}
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL) {
		snprintf(msg, len, "clearing the ambient capabilities: %s", strerror(errno));
		return -1;
	}
	data[0].permitted &= (uint32_t)keep;
	data[1].permitted &= (uint32_t)(keep >> 32);
	data[0].effective = data[0].permitted;
	data[1].effective = data[1].permitted;
	data[0].inheritable = 0;
	data[1].inheritable = 0;
	if (syscall(SYS_capset, &hdr, data)) {
		snprintf(msg, len, "setting our capabilities: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(msg, len, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int uct_run_as_lookup(const char *name, uid_t *uid, gid_t *gid, char *msg, size_t len)
{
	const char *names[] = { name ? name : UCT_RUN_AS_DEFAULT, name ? NULL : "nobody" };
	struct passwd pw, *res;
	char buf[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names) && names[i]; i++)
		if (!getpwnam_r(names[i], &pw, buf, sizeof(buf), &res) && res) {
			if (!pw.pw_uid) {
				snprintf(msg, len, "--run-as %s: that is root", names[i]);
				return UCT_EXIT_USAGE;
			}
			*uid = pw.pw_uid;
			*gid = pw.pw_gid;
			return 0;
		}
	if (name) {
		snprintf(msg, len, "--run-as %s: no such user (the user ucounttop's parts that "
			 "face tenants and the network run as)", name);
		return UCT_EXIT_USAGE;
	}
	/* neither ucounttop nor nobody: the kernel's overflow ids */
	*uid = 65534;
	*gid = 65534;
	return 0;
}

/* Whether we have capability c in the effective set */
static bool have_cap(int c)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return (data[c / 32].effective >> (c % 32)) & 1;
}

int uct_become_user(uid_t uid, gid_t gid, char *msg, size_t len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct none[2] = {}, now[2];
	uid_t r, e, s;

	/* the bounding set and securebits while CAP_SETPCAP is ours: uid 0
	 * never again means a capability, nor does an execve() */
	if (have_cap(CAP_SETPCAP)) {
		if (uct_drop_privileges(UCT_CAP(CAP_SETPCAP) | UCT_CAP(CAP_SETUID) |
					UCT_CAP(CAP_SETGID), msg, len))
			return -1;
		if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
			  SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
			  SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
			  SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0)) {
			snprintf(msg, len, "setting the securebits: %s", strerror(errno));
			return -1;
		}
		if (prctl(PR_CAPBSET_DROP, CAP_SETPCAP, 0, 0, 0) ||
		    prctl(PR_CAPBSET_DROP, CAP_SETUID, 0, 0, 0) ||
		    prctl(PR_CAPBSET_DROP, CAP_SETGID, 0, 0, 0)) {
			snprintf(msg, len, "emptying the bounding set: %s", strerror(errno));
			return -1;
		}
	}
	/* a user given capabilities by setcap stays who it is */
	if (have_cap(CAP_SETUID) && have_cap(CAP_SETGID)) {
		if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
			snprintf(msg, len, "becoming uid %u gid %u: %s", (unsigned)uid,
				 (unsigned)gid, strerror(errno));
			return -1;
		}
	}
	if (syscall(SYS_capset, &hdr, none)) {
		snprintf(msg, len, "giving up our capabilities: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL) {
		snprintf(msg, len, "clearing the ambient capabilities: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(msg, len, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
	/* said is not done: check */
	if (getresuid(&r, &e, &s) || (geteuid() != getuid()) || r != e || e != s ||
	    syscall(SYS_capget, &hdr, now) || now[0].permitted || now[1].permitted ||
	    now[0].effective || now[1].effective) {
		snprintf(msg, len, "some privilege stayed after giving it up");
		return -1;
	}
	return 0;
}

/*
 * The calls each process makes once its filter is on (x86_64 glibc
 * names; what a library calls in its place where the kernel says ENOSYS
 * is not listed). Shared: memory, signals, time, descriptors, reading.
 */
#define COMMON_CALLS \
	__NR_read, __NR_write, __NR_readv, __NR_writev, __NR_pread64, __NR_close, \
	__NR_fstat, __NR_newfstatat, __NR_statx, __NR_lseek, __NR_openat, __NR_openat2, \
	__NR_fstatfs, __NR_statfs, __NR_fcntl, __NR_dup, __NR_dup2, __NR_dup3, \
	__NR_mmap, __NR_munmap, __NR_mremap, __NR_mprotect, __NR_brk, __NR_madvise, \
	__NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_poll, __NR_ppoll, \
	__NR_clock_gettime, __NR_clock_nanosleep, __NR_nanosleep, __NR_gettimeofday, \
	__NR_getpid, __NR_gettid, __NR_getppid, __NR_getuid, __NR_geteuid, __NR_getgid, \
	__NR_getegid, __NR_exit, __NR_exit_group, __NR_futex, __NR_getrandom, \
	__NR_sendmsg, __NR_recvmsg, __NR_sendto, __NR_recvfrom, __NR_set_robust_list, \
	__NR_rseq, __NR_sched_yield, __NR_tgkill, __NR_sysinfo, __NR_uname, __NR_prlimit64, \
	__NR_readlink, __NR_readlinkat, __NR_getdents64, __NR_umask

/* The main process of the live view and --listen: maps and iterators by
 * descriptor, the terminal, the endpoint's connections and threads */
#define MAIN_CALLS \
	COMMON_CALLS, \
	__NR_bpf, __NR_ioctl, __NR_select, __NR_pselect6, __NR_epoll_create1, \
	__NR_epoll_ctl, __NR_epoll_wait, __NR_epoll_pwait, __NR_accept, __NR_accept4, \
	__NR_setsockopt, __NR_getsockopt, __NR_getsockname, __NR_getpeername, __NR_shutdown, \
	__NR_listen, __NR_pipe2, __NR_eventfd2, __NR_memfd_create, __NR_ftruncate, __NR_wait4, \
	__NR_clone, __NR_clone3, __NR_sched_getaffinity, __NR_fsync, __NR_fdatasync

static const int main_calls[] = { MAIN_CALLS };

/* trace, once its ring buffer is open: the main process's, and removing
 * --pin's pins at the end (it stays uid 0, the owner of bpffs) */
static const int trace_calls[] = { MAIN_CALLS, __NR_unlink, __NR_unlinkat, __NR_rmdir };

/* The reader and its helpers: /proc, tenants' files, -o's directory */
static const int reader_calls[] = {
	COMMON_CALLS,
	__NR_socketpair, __NR_clone, __NR_clone3, __NR_fork, __NR_wait4, __NR_kill,
	__NR_pidfd_open, __NR_prctl, __NR_close_range, __NR_rename, __NR_renameat,
	__NR_renameat2, __NR_unlink, __NR_unlinkat, __NR_rmdir, __NR_fchmod, __NR_fsync,
	__NR_ftruncate, __NR_sendfile, __NR_copy_file_range, __NR_access, __NR_faccessat,
	__NR_faccessat2, __NR_fchown,
};

int uct_sandbox(enum uct_role role, char *msg, size_t len)
{
	bool strict = uct_seccomp_strict_env();

	if (role == UCT_ROLE_READER)
		return uct_seccomp_allow(reader_calls, ARRAY_SIZE(reader_calls), strict, msg, len);
	if (role == UCT_ROLE_TRACE)
		return uct_seccomp_allow(trace_calls, ARRAY_SIZE(trace_calls), strict, msg, len);
	return uct_seccomp_allow(main_calls, ARRAY_SIZE(main_calls), strict, msg, len);
}
