// SPDX-License-Identifier: GPL-2.0
/* sleep.c - see sleep.h */
#include <errno.h>
#include <time.h>
#include "sleep.h"

void uct_sleep_s(double s, bool whole)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	/* nanosleep() leaves what was left in ts when a signal ends it */
	while (nanosleep(&ts, &ts) && errno == EINTR && whole)
		;
}
