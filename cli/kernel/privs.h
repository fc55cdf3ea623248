/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privs.h - what ucounttop keeps of root's privileges once its programs
 * are loaded and attached. Loading needs CAP_BPF, CAP_PERFMON,
 * CAP_SYS_ADMIN (the iterators, BPF statistics) and CAP_SYSLOG (the
 * kernel's symbol addresses); afterwards the maps and links are file
 * descriptors it holds, which need no capability, and the parsers of
 * what tenants and scrapers control (passwd files, cgroup paths, HTTP
 * requests) run with no more than the mode still needs.
 */
#ifndef UCT_PRIVS_H
#define UCT_PRIVS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A set of capabilities, bit CAP_x */
#define UCT_CAP(c)	(1ULL << (c))

/* What each mode keeps (ucounttop(8), SECURITY):
 * - the live view and --listen: CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH,
 *   to read a namespace's /proc/PID/ns, /proc/PID/root and, through it,
 *   its passwd file, for processes of every uid;
 * - trace: nothing;
 * - check (after CMD is started): CAP_KILL, to end CMD's process group
 *   when it runs as another user (--user), and CAP_SYSLOG, to name the
 *   kernel stacks of its report. */
extern const uint64_t uct_keep_top, uct_keep_trace, uct_keep_check;

/*
 * Keep only the capabilities in keep: the others leave the effective,
 * permitted and inheritable sets, the ambient set and (with CAP_SETPCAP)
 * the bounding set; then PR_SET_NO_NEW_PRIVS, so that no execve() gets
 * them back. 0, or -1 with msg saying which step failed.
 */
int uct_drop_privileges(uint64_t keep, char *msg, size_t len);

/*
 * The live view and --listen as two processes (ucounttop(8), SECURITY):
 * - the reader, forked once everything is loaded: root, with
 *   uct_keep_top, no network, no BPF object, no terminal; it makes the
 *   helpers that read tenants' files (privread.h), writes -o's file and
 *   removes --pin's pins at the end;
 * - the main process, which reads the maps, builds the model, renders
 *   and serves HTTP: the --run-as user (default UCT_RUN_AS_DEFAULT, else
 *   nobody), no capability in any set, the securebits that keep root's
 *   uid from meaning a capability locked (SECBIT_NOROOT and the rest),
 *   NoNewPrivs.
 * Both run under a seccomp allowlist of their own (uct_sandbox()), and so
 * does trace once its ring buffer is open.
 */
#define UCT_RUN_AS_DEFAULT	"ucounttop"

enum uct_role { UCT_ROLE_MAIN, UCT_ROLE_READER, UCT_ROLE_TRACE };

/* name's uid and gid (NULL: UCT_RUN_AS_DEFAULT, else nobody, else
 * 65534). 0, or UCT_EXIT_USAGE with msg (no such user; root). */
int uct_run_as_lookup(const char *name, uid_t *uid, gid_t *gid, char *msg, size_t len);

/* Become uid:gid (when we may: a setcap'd user stays itself) with no
 * capability left, the securebits locked and NoNewPrivs; checked. 0, or
 * -1 with msg. */
int uct_become_user(uid_t uid, gid_t gid, char *msg, size_t len);

/* The seccomp allowlist of role (seccomp.h). 0; 1 with msg when the
 * kernel takes no seccomp filter (nothing installed); or -1 with msg. */
int uct_sandbox(enum uct_role role, char *msg, size_t len);

#endif /* UCT_PRIVS_H */
