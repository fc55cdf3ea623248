// SPDX-License-Identifier: GPL-2.0
/* test_jsonscan.c - engines' JSON walked, not searched (jsonscan.h); what
 * Docker's name makes of it: test_names.c. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
