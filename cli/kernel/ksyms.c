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

struct uct_ksyms *uct_ksyms_load(const char *path)
{
	struct uct_ksyms *k = calloc(1, sizeof(*k));
	size_t cap = 0;
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f;

	if (!k)
		return NULL;
	f = fopen(path, "r");
	if (!f) {
		free(k);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
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
	fclose(f);
	qsort(k->syms, k->n, sizeof(*k->syms), sym_cmp);
	return k;
fail:
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

/* name itself, or a compiler's clone of it ("name.isra.0", "name.cold") */
static bool is_function(const char *sym, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(sym, name, n) && (sym[n] == 0 || (sym[n] == '.' && strcmp(sym + n, ".cold")));
}

/*
 * Two passes over the file, nothing kept: the function's address, then
 * the lowest text symbol address above it (whatever the file's order),
 * which ends it, as in the table uct_ksyms_load() builds.
 */
int uct_ksyms_range(const char *path, const char *name, unsigned long long *start,
		    unsigned long long *end)
{
	unsigned long long addr, lo = 0, hi = ~0ULL;
	char line[512], sym[256], type;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	/* first the function (its first text symbol of that name) */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && addr &&
		    (type == 't' || type == 'T') && is_function(sym, name)) {
			lo = addr;
			break;
		}
	}
	if (!lo) {
		fclose(f);
		return -1;
	}
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && addr > lo && addr < hi &&
		    strchr("tTwW", type))
			hi = addr;
	fclose(f);
	if (hi == ~0ULL)
		return -1;
	*start = lo;
	*end = hi;
	return 0;
}
