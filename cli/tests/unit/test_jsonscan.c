// SPDX-License-Identifier: GPL-2.0
/* test_jsonscan.c - engines' JSON walked, not searched (jsonscan.h); what
 * Docker's and Podman's names make of it: test_names.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "common.h"
#include "jsonscan.h"

static bool get_plain(const char *json, const char *key, char *out, size_t len)
{
	const char *v, *s;
	size_t vl, n;

	if (!uct_json_get(json, strlen(json), key, &v, &vl) ||
	    !uct_json_plain_string(v, vl, &s, &n) || n >= len)
		return false;
	memcpy(out, s, n);
	out[n] = 0;
	return true;
}

/* Top-level members only: the same key deeper, in a string, or after a
 * malformed value is never found */
static void test_walk(void **state)
{
	static const struct { const char *json, *key, *want; } cases[] = {
		{ "{\"a\":\"1\",\"b\":\"2\"}", "b", "2" },
		{ " \n{ \"a\" : [1, {\"b\":\"x\"}, \"]\"] , \"b\" : \"2\" } ", "b", "2" },
		{ "{\"x\":{\"b\":\"deep\"},\"b\":\"top\"}", "b", "top" },
		{ "{\"x\":{\"b\":\"deep\"}}", "b", NULL },
		{ "{\"x\":\"\\\"b\\\":\\\"str\\\"\",\"b\":\"top\"}", "b", "top" },
		{ "{\"x\":\"\\\"b\\\":\\\"str\\\"\"}", "b", NULL },
		{ "{\"n\":-1.5e3,\"t\":true,\"f\":false,\"z\":null,\"b\":\"ok\"}", "b", "ok" },
		{ "{\"b\":\"esc\\u0041\"}", "b", NULL },	/* escaped: not plain */
		{ "{\"x\":{\"y\":1,\"b\":\"ok\"}", "b", NULL },	/* unclosed */
		{ "{\"x\" \"b\":\"2\"}", "b", NULL },		/* no colon */
		{ "{\"x\":1 \"b\":\"2\"}", "b", NULL },		/* no comma */
		{ "[\"b\",\"2\"]", "b", NULL },			/* not an object */
		{ "{\"b\":\"a\nb\"}", "b", NULL },		/* a raw control byte */
		{ "{}", "b", NULL },
		{ "", "b", NULL },
	};
	char out[64], deep[400];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = get_plain(cases[i].json, cases[i].key, out, sizeof(out));

		if (got != !!cases[i].want || (got && strcmp(out, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "it" : "none", got ? out : "");
	}
	/* 64 levels of nesting are walked, 65 are not */
	snprintf(deep, sizeof(deep), "{\"x\":%.*s1%.*s,\"b\":\"ok\"}", 63,
		 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 63,
		 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
	assert_true(get_plain(deep, "b", out, sizeof(out)));
	snprintf(deep, sizeof(deep), "{\"x\":%.*s1%.*s,\"b\":\"ok\"}", 64,
		 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 64,
		 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
	assert_false(get_plain(deep, "b", out, sizeof(out)));
	/* the length bounds the walk: no NUL needed, none read past */
	{
		const char *v;
		size_t vl;

		assert_false(uct_json_get("{\"b\":\"2\"}", 6, "b", &v, &vl));
		assert_true(uct_json_get("{\"b\":\"2\"}", 9, "b", &v, &vl));
	}
}

/* An array's elements, each whole; a malformed one ends the walk */
static void test_elements(void **state)
{
	static const struct { const char *json; int n; bool ok; } cases[] = {
		{ "[]", 0, true },
		{ " [ 1 , \"],\" , {\"a\":[2,3]}, [4] ,null ] ", 5, true },
		{ "[{\"id\":\"x\"},{\"id\":\"y\"}]", 2, true },
		{ "[1 2]", 1, false },			/* no comma */
		{ "[1,]", 1, false },			/* no element */
		{ "[\"x]", 0, false },			/* unterminated */
		{ "{\"a\":1}", 0, false },		/* not an array */
		{ "", 0, false },
	};
	const char *v;
	size_t i, pos, vl;
	int n, rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *j = cases[i].json;

		pos = 0;
		n = 0;
		while ((rc = uct_json_elem(j, strlen(j), &pos, &v, &vl)) == 1)
			n++;
		if (n != cases[i].n || (rc == 0) != cases[i].ok)
			fail_msg("case %zu: %d elements, then %d", i, n, rc);
	}
	pos = 0;
	assert_int_equal(uct_json_elem("[\"a\",{\"b\":[1]}]", 16, &pos, &v, &vl), 1);
	assert_int_equal(uct_json_elem("[\"a\",{\"b\":[1]}]", 16, &pos, &v, &vl), 1);
	assert_int_equal((int)vl, 9);
	assert_memory_equal(v, "{\"b\":[1]}", 9);
	assert_int_equal(uct_json_elem("[\"a\",{\"b\":[1]}]", 16, &pos, &v, &vl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_elements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
