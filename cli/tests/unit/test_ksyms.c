// SPDX-License-Identifier: GPL-2.0
/*
 * test_ksyms.c - the kallsyms reader on made-up files: names as long as
 * the kernel allows (KSYM_NAME_LEN, 512), module suffixes, hidden
 * addresses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "ksyms.h"

/* a made-up kallsyms file holding text; the caller unlinks and frees it */
static char *write_file(const char *text)
{
	char *path = strdup("/tmp/uct-ksyms-XXXXXX");
	FILE *f;
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* a function name of n characters, as a compiler-generated one can be */
static char *long_name(size_t n)
{
	char *s = malloc(n + 1);
	size_t i;

	assert_non_null(s);
	for (i = 0; i < n; i++)
		s[i] = "abcdef_"[i % 7];
	s[n] = 0;
	return s;
}

static void test_long_names_whole(void **state)
{
	char *name = long_name(500), *text, *path;
	unsigned long long off;
	struct uct_ksyms *k;
	const char *got;

	assert_true(asprintf(&text,
			     "ffffffff81000000 T short_fn\n"
			     "ffffffff81002000 t %s\t[uct_fault]\n"
			     "ffffffff81003000 T after_fn\n", name) > 0);
	path = write_file(text);

	k = uct_ksyms_load(path);
	assert_non_null(k);
	got = uct_ksyms_lookup(k, 0xffffffff81002010ULL, &off);
	assert_non_null(got);
	assert_string_equal(got, name);
	assert_int_equal(off, 0x10);
	/* nothing of the long line was read as a symbol of its own */
	got = uct_ksyms_lookup(k, 0xffffffff81003004ULL, &off);
	assert_string_equal(got, "after_fn");
	uct_ksyms_free(k);

	unlink(path);
	free(path);
	free(text);
	free(name);
}

static void test_hidden_and_malformed(void **state)
{
	char *path = write_file("0000000000000000 T hidden_fn\n"
				"ffffffff81000000 T first_fn\n"
				"not a line\n"
				"ffffffff81000800 Tmissing_space\n"
				"ffffffff81001000 T\n"
				"ffffffff81002000 d data_sym\n"
				"ffffffff81004000 T last_fn\n");
	unsigned long long off;
	struct uct_ksyms *k = uct_ksyms_load(path);
	const char *got;

	assert_non_null(k);
	/* data and malformed lines are not text symbols: first_fn runs on */
	got = uct_ksyms_lookup(k, 0xffffffff81002000ULL, &off);
	assert_string_equal(got, "first_fn");
	assert_int_equal(off, 0x2000);
	assert_null(uct_ksyms_lookup(k, 0x10, &off));
	/* a hidden (zero) address is no symbol */
	assert_null(uct_ksyms_lookup(k, 0x0, &off));
	uct_ksyms_free(k);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_names_whole),
		cmocka_unit_test(test_hidden_and_malformed),
	};

	return cmocka_run_group_tests_name("ksyms", tests, NULL, NULL);
}
