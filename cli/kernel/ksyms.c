// SPDX-License-Identifier: GPL-2.0
/* ksyms.c - kernel addresses to names, from /proc/kallsyms. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"

struct sym {
	unsigned long long addr;
	char *name;
};

struct uct_ksyms {
	struct sym *syms;
	size_t n;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * One line of /proc/kallsyms, "ADDR TYPE NAME[\t[MODULE]]", split in
 * place. A name may be as long as the kernel's KSYM_NAME_LEN (512), so
 * nothing is bounded here but the line getline() read.
 */
static bool parse_line(char *line, unsigned long long *addr, char *type, char **name)
{
	char *end, *p;

	errno = 0;
	*addr = strtoull(line, &end, 16);
	if (end == line || errno || *end != ' ' || !end[1] || end[2] != ' ')
		return false;
	*type = end[1];
	p = *name = end + 3;
	p += strcspn(p, " \t\n");
	if (p == *name)
		return false;
	*p = 0;
	return true;
}

struct uct_ksyms *uct_ksyms_load(const char *path)
{
	struct uct_ksyms *k = calloc(1, sizeof(*k));
	size_t cap = 0, len = 0;
	char *line = NULL, *name, type;
	unsigned long long addr;
	FILE *f;

	if (!k)
		return NULL;
	f = fopen(path, "r");
	if (!f) {
		free(k);
		return NULL;
	}
	while (getline(&line, &len, f) > 0) {
		if (!parse_line(line, &addr, &type, &name) || !addr)
			continue;	/* zero addresses: kptr_restrict hides them */
		if (type != 't' && type != 'T' && type != 'W' && type != 'w')
			continue;	/* stacks only hold text addresses */
		if (k->n == cap) {
			struct sym *p;

			cap = cap ? cap * 2 : 4096;
			p = realloc(k->syms, cap * sizeof(*p));
			if (!p)
				goto fail;
			k->syms = p;
		}
		k->syms[k->n].addr = addr;
		k->syms[k->n].name = strdup(name);
		if (!k->syms[k->n].name)
			goto fail;
		k->n++;
	}
	free(line);
	fclose(f);
	qsort(k->syms, k->n, sizeof(*k->syms), sym_cmp);
	return k;
fail:
	free(line);
	fclose(f);
	uct_ksyms_free(k);
	errno = ENOMEM;
	return NULL;
}

void uct_ksyms_free(struct uct_ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		free(k->syms[i].name);
	free(k->syms);
	free(k);
}

const char *uct_ksyms_lookup(const struct uct_ksyms *k, unsigned long long addr,
			     unsigned long long *off)
{
	size_t lo = 0, hi;

	if (!k || !k->n || addr < k->syms[0].addr)
		return NULL;
	hi = k->n;
	/* last symbol with sym.addr <= addr */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*off = addr - k->syms[lo].addr;
	return k->syms[lo].name;
}
