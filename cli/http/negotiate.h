/* SPDX-License-Identifier: GPL-2.0 */
/* negotiate.h - the exposition format a --listen scraper asked for. */
#ifndef UCT_NEGOTIATE_H
#define UCT_NEGOTIATE_H

#include "views.h"

/* From the request's Accept header (NULL: none); see negotiate.c. */
enum uct_metrics_fmt uct_negotiate_metrics(const char *accept);
/* The Content-Type a format is served with. */
const char *uct_metrics_content_type(enum uct_metrics_fmt fmt);

#endif /* UCT_NEGOTIATE_H */
