// SPDX-License-Identifier: GPL-2.0
/* mhd.c - libmicrohttpd through dlopen(); see mhd.h for why. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include "common.h"
#include "mhd.h"

#ifndef UCT_MHD_SONAME
#define UCT_MHD_SONAME "libmicrohttpd.so.12"
#endif

struct uct_mhd uct_mhd;

int uct_mhd_load(char *msg, size_t len)
{
	static const struct {
		const char *sym;
		size_t off;
	} funcs[] = {
#define UCT_MHD_ENTRY(n) { "MHD_" #n, offsetof(struct uct_mhd, n) },
		UCT_MHD_FUNCS(UCT_MHD_ENTRY)
#undef UCT_MHD_ENTRY
	};
	static void *lib;
	struct uct_mhd m;
	size_t i;

	if (lib)
		return UCT_EXIT_OK;
	/* RTLD_NOW: a symbol missing from an older library fails here, with
	 * its name, not at the first request */
	lib = dlopen(UCT_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(msg, len, "--listen needs libmicrohttpd (%s; Debian: apt install "
			 "libmicrohttpd12): %s", UCT_MHD_SONAME, dlerror());
		return UCT_EXIT_KERNEL;
	}
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		void *f = dlsym(lib, funcs[i].sym);

		if (!f) {
			snprintf(msg, len, "--listen: %s has no %s (libmicrohttpd too old?)",
				 UCT_MHD_SONAME, funcs[i].sym);
			dlclose(lib);
			lib = NULL;
			return UCT_EXIT_KERNEL;
		}
		*(void **)((char *)&m + funcs[i].off) = f;
	}
	uct_mhd = m;
	return UCT_EXIT_OK;
}
