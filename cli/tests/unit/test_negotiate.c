// SPDX-License-Identifier: GPL-2.0
/* test_negotiate.c - --listen: the exposition each Accept header gets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common.h"
#include "negotiate.h"

#define OM UCT_METRICS_OPENMETRICS
#define TEXT UCT_METRICS_TEXT

static const struct {
	const char *accept;
	enum uct_metrics_fmt want;
} cases[] = {
	/* no header, or one that names neither: the text format */
	{ NULL, TEXT },
	{ "", TEXT },
	{ "*/*", TEXT },
	{ "application/json", TEXT },
	{ "text/html,application/xhtml+xml,*/*;q=0.8", TEXT },
	/* Prometheus 2.42 (ours), 3.x, and 2.5-2.4x (OpenMetrics 0.0.1 only) */
	{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
	  "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1", OM },
	{ "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
	  "application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;"
	  "escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2", OM },
	{ "application/openmetrics-text; version=0.0.1,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
	  TEXT },
	/* OpenMetrics by name, any version we speak */
	{ "application/openmetrics-text", OM },
	{ "application/openmetrics-text; version=1.0.0; charset=utf-8", OM },
	{ "APPLICATION/OpenMetrics-Text;Version=1.0.0", OM },
	{ "application/openmetrics-text;version=\"1.0.0\"", OM },
	{ "application/openmetrics-text;version=\"1.0.0x\"", TEXT },
	{ "application/openmetrics-text;version=\"1.\\0.0\"", OM },
	{ "application/openmetrics-text;version=2.0.0", TEXT },
	{ "application/openmetrics-text;version=1.0.0aaaaaaaaaaaaaaaaaaaaaaaaaaa", TEXT },
	{ "application/openmetrics-text-but-longer-than-any-type-we-know", TEXT },
	{ "application/openmetrics-tex", TEXT },
	{ "application/openmetrics-textx", TEXT },
	{ "applicationx/openmetrics-text", TEXT },
	{ "application/openmetrics-text;version=1.0.00", TEXT },
	{ "application/openmetrics-text;versionx=1.0.0", OM },
	/* wildcards never choose OpenMetrics */
	{ "application/*", TEXT },
	{ "*/*;q=1,application/*;q=1", TEXT },
	/* qualities: OpenMetrics when above 0 and not below the text's */
	{ "application/openmetrics-text;q=0", TEXT },
	{ "application/openmetrics-text;q=0.5,text/plain;q=0.6", TEXT },
	{ "application/openmetrics-text;q=0.5,text/plain;q=0.5", OM },
	{ "application/openmetrics-text;q=0.5,*/*", TEXT },
	{ "text/plain;version=0.0.4;q=0.5,application/openmetrics-text;version=1.0.0;q=0.4", TEXT },
	{ "application/openmetrics-text;q=0.001", OM },
	{ "application/openmetrics-text;q=1.000", OM },
	{ "application/openmetrics-text;q=1,application/openmetrics-text;q=0.2", OM },
	/* the most specific range decides */
	{ "text/plain;q=0,application/openmetrics-text;q=0.1", OM },
	{ "text/plain;version=0.0.4;q=0,text/*;q=1,application/openmetrics-text;q=0.5", OM },
	{ "text/plain;q=0.9,text/plain;version=0.0.4;q=0.1,application/openmetrics-text;q=0.5", OM },
	{ "application/openmetrics-text;version=1.0.0;q=0,application/openmetrics-text", TEXT },
	{ "text/*;q=0.9,application/openmetrics-text;q=0.8", TEXT },
	/* not a quality: the element is ignored */
	{ "application/openmetrics-text;q=1.5", TEXT },
	{ "application/openmetrics-text;q=0.0001", TEXT },
	{ "application/openmetrics-text;q=.5", TEXT },
	{ "application/openmetrics-text;q=", TEXT },
	{ "application/openmetrics-text;q=1.5,application/openmetrics-text;q=0.2", OM },
	{ "text/*;q=1,text/plain;q=5,application/openmetrics-text;q=0.5", TEXT },
	/* blanks, empty parameters and elements, quoted strings */
	{ " application/openmetrics-text ; version=1.0.0 ; q=0.9 , text/plain ; q=0.8", OM },
	{ "application/openmetrics-text;;version=1.0.0;", OM },
	{ ",,application/openmetrics-text,,", OM },
	{ "text/plain;x=\"a,application/openmetrics-text\",x/y", TEXT },
	{ "text/plain;x=\"a,application/openmetrics-text,b\"", TEXT },
	{ "text/plain;x=\"\\\",application/openmetrics-text\"", TEXT },
	{ "x/y;x=\"a\\\\\",application/openmetrics-text", OM },
	/* not media ranges */
	{ "application/openmetrics-text;version", TEXT },
	{ "application/openmetrics-text;version=\"1.0.0", TEXT },
	{ "\"application/openmetrics-text\"", TEXT },
	{ "application/openmetrics-text junk", TEXT },
	{ "application openmetrics-text", TEXT },
	{ "/openmetrics-text", TEXT },
	{ "application/", TEXT },
};

static void test_negotiate(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum uct_metrics_fmt got = uct_negotiate_metrics(cases[i].accept);

		if (got != cases[i].want)
			fail_msg("Accept: %s -> %s, expected %s", cases[i].accept ?: "(none)",
				 got == OM ? "OpenMetrics" : "text",
				 cases[i].want == OM ? "OpenMetrics" : "text");
	}
}

/* A long header, as the server's memory limit allows: no limit of our own */
static void test_negotiate_long(void **state)
{
	static const char om[] = "application/openmetrics-text;version=1.0.0";
	size_t n = 12000, i;
	char *s = malloc(n + sizeof(om));

	for (i = 0; i < n; i += 4)
		memcpy(s + i, "a/b,", 4);
	memcpy(s + n, om, sizeof(om));
	assert_int_equal(uct_negotiate_metrics(s), OM);
	s[n - 1] = ';';		/* now a parameter of the last a/b: broken */
	assert_int_equal(uct_negotiate_metrics(s), TEXT);
	free(s);
}

static void test_content_types(void **state)
{
	assert_string_equal(uct_metrics_content_type(OM),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
	assert_string_equal(uct_metrics_content_type(TEXT), "text/plain; version=0.0.4; charset=utf-8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_negotiate_long),
		cmocka_unit_test(test_content_types),
	};

	return cmocka_run_group_tests_name("negotiate", tests, NULL, NULL);
}
