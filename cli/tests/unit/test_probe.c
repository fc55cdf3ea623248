// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe.c - the kernel-layout check (probe.c) on synthetic BTF: a
 * kernel with the 6.1 layout passes, one without ucounts.rlimit[] (the
 * 5.14..6.0 layout, counters in ucount[]) or without rlimit_max[] is
 * refused with the missing member named. No kernel involved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include "probe.h"

/* struct NAME { long MEMBER[4]; } */
static void add_struct(struct btf *btf, int arr, const char *name, const char *member)
{
	assert_true(btf__add_struct(btf, name, 32) > 0);
	assert_int_equal(btf__add_field(btf, member, arr, 0, 0), 0);
}

static struct btf *kernel(const char *ucounts_member, const char *ns_member)
{
	struct btf *btf = btf__new_empty();
	int l, arr;

	assert_non_null(btf);
	l = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	arr = btf__add_array(btf, l, l, 4);
	add_struct(btf, arr, "ucounts", ucounts_member);
	add_struct(btf, arr, "user_namespace", ns_member);
	add_struct(btf, arr, "cred", "ucounts");
	return btf;
}

static void test_layout_6_1(void **state)
{
	struct btf *btf = kernel("rlimit", "rlimit_max");
	char msg[512] = "";

	assert_int_equal(uct_check_kernel_layout(btf, msg, sizeof(msg)), 0);
	btf__free(btf);
}

static void test_layout_without_rlimit(void **state)
{
	struct btf *btf = kernel("ucount", "rlimit_max");
	char msg[512] = "";

	assert_int_equal(uct_check_kernel_layout(btf, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "struct ucounts has no member rlimit"));
	assert_non_null(strstr(msg, "6.1 is the oldest tested"));
	btf__free(btf);
}

static void test_layout_without_rlimit_max(void **state)
{
	struct btf *btf = kernel("rlimit", "ucount_max");
	char msg[512] = "";

	assert_int_equal(uct_check_kernel_layout(btf, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "struct user_namespace has no member rlimit_max"));
	btf__free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_6_1),
		cmocka_unit_test(test_layout_without_rlimit),
		cmocka_unit_test(test_layout_without_rlimit_max),
	};

	return cmocka_run_group_tests_name("probe", tests, NULL, NULL);
}
