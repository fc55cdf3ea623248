/* SPDX-License-Identifier: GPL-2.0 */
/* clock.h - the one monotonic clock every layer measures intervals with. */
#ifndef UCT_CLOCK_H
#define UCT_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: intervals only, never a date. */
double uct_now_s(void);

#endif /* UCT_CLOCK_H */
