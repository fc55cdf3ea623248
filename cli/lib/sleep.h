/* SPDX-License-Identifier: GPL-2.0 */
/* sleep.h - pauses of a fraction of a second, and what a signal does to them. */
#ifndef UCT_SLEEP_H
#define UCT_SLEEP_H

#include <stdbool.h>

/*
 * Sleep s seconds. A signal caught meanwhile ends the sleep early unless
 * whole: a loop that must react to the signal at once (forward it, stop)
 * wants it early; one that must keep its steps apart sleeps whole.
 */
void uct_sleep_s(double s, bool whole);

#endif /* UCT_SLEEP_H */
