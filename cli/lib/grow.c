// SPDX-License-Identifier: GPL-2.0
/* grow.c - see grow.h */
#include <stdlib.h>
#include "grow.h"

void *uct_grow(void *buf, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n <= *cap)
		return buf;
	ncap = *cap ? *cap : 16;
	while (ncap < n)
		ncap *= 2;
	p = realloc(buf, ncap * sz);
	if (p)
		*cap = ncap;
	return p;
}
