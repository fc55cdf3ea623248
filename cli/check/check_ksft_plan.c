// SPDX-License-Identifier: GPL-2.0
/* check_ksft_plan.c - which tests `check --kselftest DIR...` runs, and
 * each one's timeout (see check_kselftest.h). No BPF: the unit tests
 * call it. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "check_kselftest.h"
#include "common.h"

#define LIST_FILE	"kselftest-list.txt"

static int add_test(struct ksft_plan *p, const char *collection, const char *dir,
		    const char *name, double timeout)
{
	struct ksft_test *n = realloc(p->t, (p->n + 1) * sizeof(*n)), *t;

	if (!n)
		return -ENOMEM;
	p->t = n;
	t = &p->t[p->n];
	memset(t, 0, sizeof(*t));
	t->collection = strdup(collection);
	t->dir = strdup(dir);
	if (t->dir && asprintf(&t->path, "%s/%s", dir, name) < 0)
		t->path = NULL;
	if (!t->collection || !t->dir || !t->path) {
		free(t->collection);
		free(t->dir);
		free(t->path);
		return -ENOMEM;
	}
	t->name = t->path + strlen(dir) + 1;
	t->timeout = timeout;
	p->n++;
	return 0;
}

/* A collection's timeout: its settings file's timeout=N, as kselftest's
 * runner reads it (N whole seconds, 0 none); KSFT_DEFAULT_TIMEOUT with no
 * such file or line. */
static int read_settings(const char *dir, double *timeout, char *msg, size_t len)
{
	char path[PATH_MAX], line[256], *end;
	long v;
	FILE *f;

	*timeout = KSFT_DEFAULT_TIMEOUT;
	snprintf(path, sizeof(path), "%s/settings", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "timeout=", 8))
			continue;
		errno = 0;
		v = strtol(line + 8, &end, 10);
		if (errno || end == line + 8 || (*end && *end != '\n') || v < 0 || v > 86400) {
			snprintf(msg, len, "%s: timeout=%.*s is not whole seconds in 0..86400 "
				 "(0: none)", path, (int)strcspn(line + 8, "\n"), line + 8);
			fclose(f);
			return UCT_EXIT_USAGE;
		}
		*timeout = (double)v;
	}
	fclose(f);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A collection: every executable regular file of dir, by name. */
static int plan_collection(struct ksft_plan *p, const char *dir, double timeout, char *msg,
			   size_t len)
{
	char real[PATH_MAX], *coll, **names = NULL;
	size_t n = 0, i, before = p->n;
	struct dirent *e;
	int rc = 0;
	DIR *d;

	if (!realpath(dir, real) || !(d = opendir(real))) {
		snprintf(msg, len, "--kselftest %s: %s", dir, strerror(errno));
		return UCT_EXIT_USAGE;
	}
	coll = strrchr(real, '/') + 1;
	while ((e = readdir(d))) {
		struct stat st;
		char **nn;

		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || !(nn[n] = strdup(e->d_name))) {
			names = nn ? nn : names;
			rc = -ENOMEM;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	if (!rc && n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; !rc && i < n; i++)
		rc = add_test(p, *coll ? coll : "/", real, names[i], timeout);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc) {
		snprintf(msg, len, "--kselftest %s: %s", dir, strerror(-rc));
		return UCT_EXIT_TOOL;
	}
	if (p->n == before) {
		snprintf(msg, len, "--kselftest %s: no executable file in it, and no %s (a "
			 "collection's directory, or where kselftests were installed)", dir,
			 LIST_FILE);
		return UCT_EXIT_USAGE;
	}
	return 0;
}

/* An installed tree: its list's "COLLECTION:TEST" lines, in order. */
static int plan_installed(struct ksft_plan *p, const char *dir, FILE *list,
			  const struct uct_opts *o, char *msg, size_t len)
{
	char line[PATH_MAX], cdir[PATH_MAX], real[PATH_MAX], *colon;
	size_t before = p->n;
	unsigned lineno = 0;
	bool long_path;
	double timeout;
	int rc;

	while (fgets(line, sizeof(line), list)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		colon = strchr(line, ':');
		if (!colon || colon == line || !colon[1] || strchr(colon + 1, '/')) {
			snprintf(msg, len, "--kselftest %s: %s line %u is not COLLECTION:TEST: "
				 "'%.200s'", dir, LIST_FILE, lineno, line);
			return UCT_EXIT_USAGE;
		}
		*colon = 0;
		long_path = (size_t)snprintf(cdir, sizeof(cdir), "%s/%s", dir, line) >= sizeof(cdir);
		if (long_path || !realpath(cdir, real)) {
			if (long_path)
				errno = ENAMETOOLONG;
			snprintf(msg, len, "--kselftest %s: %s line %u: %s: %s", dir, LIST_FILE,
				 lineno, cdir, strerror(errno));
			return UCT_EXIT_USAGE;
		}
		rc = read_settings(real, &timeout, msg, len);
		if (rc)
			return rc;
		if (add_test(p, line, real, colon + 1, o->timeout > 0 ? o->timeout : timeout)) {
			snprintf(msg, len, "--kselftest %s: %s", dir, strerror(ENOMEM));
			return UCT_EXIT_TOOL;
		}
	}
	if (p->n == before) {
		snprintf(msg, len, "--kselftest %s: its %s names no test", dir, LIST_FILE);
		return UCT_EXIT_USAGE;
	}
	return 0;
}

int check_kselftest_plan(const struct uct_opts *o, struct ksft_plan *p, char *msg, size_t len)
{
	char path[PATH_MAX];
	char *const *dir;
	struct stat st;
	double timeout;
	FILE *list;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	for (dir = o->cmd_argv; !rc && *dir; dir++) {
		if (stat(*dir, &st) || !S_ISDIR(st.st_mode)) {
			snprintf(msg, len, "--kselftest %s: %s", *dir,
				 stat(*dir, &st) ? strerror(errno) : "not a directory");
			rc = UCT_EXIT_USAGE;
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", *dir, LIST_FILE);
		list = fopen(path, "r");
		if (list) {
			rc = plan_installed(p, *dir, list, o, msg, len);
			fclose(list);
			continue;
		}
		rc = read_settings(*dir, &timeout, msg, len);
		if (!rc)
			rc = plan_collection(p, *dir, o->timeout > 0 ? o->timeout : timeout, msg,
					     len);
	}
	if (rc)
		check_kselftest_plan_free(p);
	return rc;
}

void check_kselftest_plan_free(struct ksft_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->t[i].collection);
		free(p->t[i].dir);
		free(p->t[i].path);
	}
	free(p->t);
	memset(p, 0, sizeof(*p));
}
