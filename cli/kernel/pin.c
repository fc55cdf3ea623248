// SPDX-License-Identifier: GPL-2.0
/*
 * pin.c - --pin: the live view's maps and links in a bpffs directory, for
 * other tools to read while it runs (or after, with --keep-pinned).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "loader.h"
#include "loader_internal.h"
#include "ucounttop.skel.h"

/* The maps --pin leaves, by the names they are pinned as */
struct pinned_map {
	struct bpf_map *map;
	const char *name;
};
#define PINNED_MAPS	6

static void pinned_maps(const struct ucounttop_bpf *s, struct pinned_map m[PINNED_MAPS])
{
	const struct pinned_map all[PINNED_MAPS] = {
		{ s->maps.stats, "stats" }, { s->maps.evcounts, "evcounts" },
		{ s->maps.evcache, "evcache" }, { s->maps.seen, "seen" },
		{ s->maps.events, "events" }, { s->maps.bss, "counters" },
	};

	memcpy(m, all, sizeof(all));
}

int uct_pin_all(struct uct_loader *l, const char *dir, bool keep, char *msg, size_t len)
{
	struct pinned_map maps[PINNED_MAPS];
	char path[PATH_MAX + 64];
	size_t i;
	DIR *d;

	snprintf(l->pin_dir, sizeof(l->pin_dir), "%s", dir);
	l->keep_pinned = keep;
	pinned_maps(l->skel, maps);
	if (mkdir(l->pin_dir, 0700) && errno != EEXIST) {
		snprintf(msg, len, "--pin: cannot create %s: %s", l->pin_dir, strerror(errno));
		return UCT_EXIT_FAIL;
	}
	d = opendir(l->pin_dir);
	if (d) {
		struct dirent *e;

		while ((e = readdir(d))) {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				closedir(d);
				snprintf(msg, len, "--pin: %s is not empty (another ucounttop, or one "
					 "run with --keep-pinned?). Remove it first: rm -r %s",
					 l->pin_dir, l->pin_dir);
				return UCT_EXIT_FAIL;
			}
		}
		closedir(d);
	}
	l->pinned = true;
	for (i = 0; i < PINNED_MAPS; i++) {
		snprintf(path, sizeof(path), "%s/%s", l->pin_dir, maps[i].name);
		if (bpf_map__pin(maps[i].map, path)) {
			snprintf(msg, len, "--pin: pinning map at %s: %s", path, strerror(errno));
			return UCT_EXIT_FAIL;
		}
	}
	for (i = 0; i < l->nprogs; i++) {
		if (!*l->progs[i].link)
			continue;
		snprintf(path, sizeof(path), "%s/link_%s", l->pin_dir,
			 bpf_program__name(l->progs[i].prog));
		if (bpf_link__pin(*l->progs[i].link, path)) {
			snprintf(msg, len, "--pin: pinning link at %s: %s", path, strerror(errno));
			return UCT_EXIT_FAIL;
		}
	}
	return UCT_EXIT_OK;
}

void uct_unpin_all(struct uct_loader *l)
{
	struct pinned_map maps[PINNED_MAPS];
	size_t i;

	if (!l->pinned || l->keep_pinned)
		return;
	pinned_maps(l->skel, maps);
	for (i = 0; i < PINNED_MAPS; i++)
		bpf_map__unpin(maps[i].map, NULL);
	for (i = 0; i < l->nprogs; i++)
		if (*l->progs[i].link)
			bpf_link__unpin(*l->progs[i].link);
	rmdir(l->pin_dir);
}
