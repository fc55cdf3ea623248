// SPDX-License-Identifier: GPL-2.0
/* clock.c - see clock.h */
#include <time.h>
#include "clock.h"

double uct_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
