/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture_files.h - the unit tests' fixture files (after <cmocka.h>):
 * text written whole to dir/name, a failed write failing the test.
 */
#ifndef UCT_TEST_FIXTURE_FILES_H
#define UCT_TEST_FIXTURE_FILES_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static inline void put_in(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	/* a key others can read is refused, as on a real system */
	if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".key"))
		assert_int_equal(chmod(path, 0600), 0);
}

#endif /* UCT_TEST_FIXTURE_FILES_H */
