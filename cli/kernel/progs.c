// SPDX-License-Identifier: GPL-2.0
/* progs.c - a skeleton's program table: load, attach, misses (see progs.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "loader_internal.h"
#include "progs.h"

static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void uct_libbpf_setup(bool v)
{
	verbose = v;
	libbpf_set_print(print_fn);
}

/* The verifier's statistics per program (log level 4: instructions
 * processed, time), which libbpf prints after a load when asked for a
 * log. Not with plain -v: a program the verifier refuses would then log
 * its statistics, not the instructions that show why. */
unsigned int uct_kernel_log_level(void)
{
	const char *s = getenv("UCOUNTTOP_VERIFIER_STATS");

	return verbose && s && !strcmp(s, "1") ? 4 : 0;
}

void uct_degraded_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;

	if (off && off + 2 < len) {
		memcpy(buf + off, "; ", 3);
		off += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + off, off < len ? len - off : 0, fmt, ap);
	va_end(ap);
}

void uct_progs_autoload(const struct uct_prog *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bpf_program__set_autoload(p[i].prog, p[i].want);
}

/* "fexit/inc_rlimit_ucounts" -> "fexit:inc_rlimit_ucounts" */
static void hook_name(const struct bpf_program *prog, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", bpf_program__section_name(prog));
	slash = strchr(buf, '/');
	if (slash)
		*slash = ':';
}

int uct_progs_attach(struct uct_prog *p, size_t n, char *hooks, size_t hlen, char *degraded,
		     size_t dlen, char *msg, size_t len)
{
	char hook[128];
	size_t i;
	int err;

	hooks[0] = 0;
	for (i = 0; i < n; i++) {
		if (!p[i].want)
			continue;
		hook_name(p[i].prog, hook, sizeof(hook));
		/* test hook: UCOUNTTOP_TEST_FAIL_ATTACH="fexit:x,tp_btf:y" makes
		 * those attachments fail as an untraceable function would */
		if (uct_test_listed("UCOUNTTOP_TEST_FAIL_ATTACH", hook)) {
			*p[i].link = NULL;
			errno = EOPNOTSUPP;
		} else {
			*p[i].link = bpf_program__attach(p[i].prog);
		}
		if (!*p[i].link) {
			err = -errno;
			if (p[i].optional) {
				uct_degraded_add(degraded, dlen, "%s not attached (%s): %s", hook,
						 strerror(-err), p[i].loss);
				p[i].want = false;
				continue;
			}
			snprintf(msg, len, "attaching %s failed: %s%s", hook, strerror(-err),
				 err == -ENOENT || err == -ESRCH || err == -EINVAL ?
				 " (the kernel cannot trace this function/tracepoint)" : "");
			return err == -EPERM ? UCT_EXIT_PRIV :
			       err == -ENOENT || err == -ESRCH ? UCT_EXIT_KERNEL : UCT_EXIT_FAIL;
		}
		if (!strncmp(hook, "iter:", 5))
			continue;
		snprintf(hooks + strlen(hooks), hlen - strlen(hooks), "%s%s", hooks[0] ? "," : "",
			 hook);
	}
	return UCT_EXIT_OK;
}

unsigned long long uct_prog_misses(const struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	if (fd < 0)
		return 0;
	/* a kernel older than the field leaves it 0 */
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

unsigned long long uct_progs_misses(const struct uct_prog *p, size_t n)
{
	unsigned long long sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].want && *p[i].link)
			sum += uct_prog_misses(p[i].prog);
	return sum;
}
