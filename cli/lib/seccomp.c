// SPDX-License-Identifier: GPL-2.0
/* seccomp.c - a system call allowlist as a classic BPF filter (seccomp.h). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "seccomp.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#define X32_BIT		0x40000000u	/* __X32_SYSCALL_BIT */
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#else
#error "seccomp.c: add this architecture's AUDIT_ARCH"
#endif

/* a jump's offsets are 8 bits: every allowed number jumps to the end */
#define MAX_ALLOWED	250

bool uct_seccomp_strict_env(void)
{
	const char *s = getenv("UCT_SECCOMP_STRICT");

	return s && !strcmp(s, "1");
}

/* Whether this kernel takes seccomp filters at all: one read from NULL
 * faults where it does; without CONFIG_SECCOMP_FILTER the mode is
 * refused (EINVAL), without CONFIG_SECCOMP the call does not exist */
static bool kernel_takes_filters(void)
{
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) < 0 && errno == EFAULT;
}

int uct_seccomp_allow(const int *nrs, size_t n, bool strict, char *msg, size_t len)
{
	struct sock_filter f[MAX_ALLOWED + 8];
	struct sock_fprog prog;
	__u32 deny = strict ? SECCOMP_RET_KILL_PROCESS : SECCOMP_RET_ERRNO | ENOSYS;
	size_t i, k = 0;

	if (n > MAX_ALLOWED) {
		snprintf(msg, len, "seccomp: %zu calls allowed, at most %d", n, MAX_ALLOWED);
		return -1;
	}
	/* another ABI numbers its calls otherwise: refused whole */
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
#ifdef X32_BIT
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT,
					      (__u8)(n + 0), 0);
#endif
	/* n comparisons, then deny, then allow: number i jumps n - i over
	 * the rest and deny */
	for (i = 0; i < n; i++)
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)nrs[i],
						      (__u8)(n - i), 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deny);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog = (struct sock_fprog){ .len = (unsigned short)k, .filter = f };
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		int err = errno;

		if (err == EINVAL && !kernel_takes_filters()) {
			snprintf(msg, len, "kernel without CONFIG_SECCOMP_FILTER");
			return 1;
		}
		errno = err;
		snprintf(msg, len, "installing the seccomp filter: %s", strerror(errno));
		return -1;
	}
	return 0;
}
