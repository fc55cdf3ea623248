/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp.h - a system call allowlist for the calling thread and every
 * process it forks (a seccomp filter; it cannot be removed).
 *
 * A call that is not listed fails with ENOSYS, as a call the kernel does
 * not know would: the C library falls back where it can (clone3 to
 * clone, statx to fstatat), and a path nobody tested returns an error
 * instead of killing a live view or an endpoint. With strict (the tests:
 * UCT_SECCOMP_STRICT=1 in the environment) the process is killed
 * instead, so that a missing entry shows. A call made with another ABI
 * (x32, or i386 through int 0x80) is always refused.
 */
#ifndef UCT_SECCOMP_H
#define UCT_SECCOMP_H

#include <stdbool.h>
#include <stddef.h>

/* Allow the n system call numbers in nrs (the native ABI's __NR_x);
 * needs PR_SET_NO_NEW_PRIVS (or CAP_SYS_ADMIN). 0; 1 with msg when the
 * kernel takes no seccomp filter (built without CONFIG_SECCOMP_FILTER:
 * nothing installed, the caller decides); or -1 with msg. */
int uct_seccomp_allow(const int *nrs, size_t n, bool strict, char *msg, size_t len);

/* Whether the environment asks for strict filters */
bool uct_seccomp_strict_env(void);

#endif /* UCT_SECCOMP_H */
