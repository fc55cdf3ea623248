// SPDX-License-Identifier: GPL-2.0
/* privs.c - drop what loading needed (privs.h). */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "privs.h"

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
