// SPDX-License-Identifier: GPL-2.0
/* test_views.c - batch, JSON and OpenMetrics renderings, number formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>
#include "fmt.h"
#include "model.h"
#include "proc_limits.h"
#include "views.h"
#include "snapshots.h"
#include "json_check.h"

/* ---- fixtures ---- */
struct fx {
	struct uct_model m;
	struct uct_view_ctx c;
	char *out;
	size_t len;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	size_t n = base_snapshot(recs);

	mkstat(&kv, 100, 1001);
	kv.st.denials[UCT_SIGPENDING] = 2;
	kv.st.last_pid = 77;
	strcpy(kv.st.last_comm, "we\"ird\\comm\x01");
	uct_model_init(&f->m);
	assert_int_equal(uct_model_update(&f->m, recs, n, &kv, 1, 1000.0), 0);
	f->c = (struct uct_view_ctx){ .snapshot_src = "iter/task", .hooks = "fexit:x",
				      .delay = 1.0, .wall = { .tv_sec = 1767225600 } };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	uct_model_free(&f->m);
	free(f->out);
	free(f);
	return 0;
}

typedef void (*view_fn)(FILE *, const struct uct_model *, const struct uct_view_ctx *);

static const char *render(struct fx *f, view_fn fn)
{
	FILE *s;

	free(f->out);
	f->out = NULL;
	s = open_memstream(&f->out, &f->len);
	fn(s, &f->m, &f->c);
	fclose(s);
	return f->out;
}

/* ---- JSON ---- */

/* The checker the tests and the fuzz targets trust. */
static void test_json_checker(void **state)
{
	assert_true(json_valid("{\"a\":[1,-2.5,\"x\\u0001\\n\",true,null],\"b\":{}}\n"));
	assert_false(json_valid(""));
	assert_false(json_valid("{\"a\":1,}"));
	assert_false(json_valid("[1 2]"));
	assert_false(json_valid("\"tab\there\""));	/* raw control character */
	assert_false(json_valid("\"\\x41\""));		/* not a JSON escape */
	assert_false(json_valid("\"\\u00g1\""));
	assert_false(json_valid("\"ends in a backslash\\"));
	assert_false(json_valid("inf"));
	assert_false(json_valid("-nan"));
	assert_false(json_valid("1.e5"));
	assert_false(json_valid("{\"a\":1}{"));
}

static void test_json_valid_one_line(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_json);
	const char *nl = strchr(out, '\n');

	assert_non_null(nl);
	assert_int_equal(nl[1], 0);		/* exactly one line */
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "\"schema\":\"ucounttop/1\""));
	assert_non_null(strstr(out, "\"time\":\"2026-01-01T00:00:00Z\""));
	assert_non_null(strstr(out, "\"snapshot\":\"iter/task\""));
}

static void test_json_rows(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_json);

	/* each row starts with ns, level, uid: greppable from a shell */
	assert_non_null(strstr(out, "{\"ns\":200,\"level\":2,\"uid\":1002,\"parent_ns\":100,"
				    "\"parent_uid\":1002,"));
	assert_non_null(strstr(out, "{\"ns\":1,\"level\":0,\"uid\":1001,\"parent_ns\":null,"));
	assert_non_null(strstr(out, "\"nproc\":{\"value\":6,\"limit\":5,\"delta\":0,"
				    "\"child_sum\":6,"));
	assert_non_null(strstr(out, "\"flags\":[\"over_limit\"]"));
	/* comm escaped; JSON stays valid */
	assert_non_null(strstr(out, "\"last_comm\":\"we\\\"ird\\\\comm\\u0001\""));
	assert_non_null(strstr(out, "\"sigpending\":{\"value\":4,\"limit\":null,\"delta\":0,"
				    "\"child_sum\":0,\"denials\":2,"));
	assert_non_null(strstr(out, "\"denials\":{\"nproc\":0,\"msgqueue\":0,\"sigpending\":2,"
				    "\"memlock\":0}"));
	/* namespaces: init has no parent; LONG_MAX stays exact */
	assert_non_null(strstr(out, "{\"ns\":1,\"level\":0,\"owner_uid\":0,\"parent_ns\":null,"
				    "\"creator_uid\":null,\"owner_ns_uid\":0,"
				    "\"max\":{\"nproc\":9223372036854775807,"));
	assert_non_null(strstr(out, "{\"ns\":100,\"level\":1,\"owner_uid\":1001,\"parent_ns\":1,"
				    "\"creator_uid\":1001,\"owner_ns_uid\":1001,\"max\":{\"nproc\":5,"));
	/* the uid inside comes after the kuid's keys, before refcount */
	assert_non_null(strstr(out, "\"parent_uid\":1002,\"ns_uid\":1002,\"user\":null,\"refcount\":1,"));
	assert_non_null(strstr(out, "\"used\":{\"nproc\":6,"));
	/* no per-event fields without --events */
	assert_null(strstr(out, "\"charges\""));
}

static void test_json_events_and_filter(void **state)
{
	struct fx *f = *state;
	const char *out;

	f->c.events = true;
	f->m.uid_filter = 1001;
	uct_model_relayout(&f->m);
	out = render(f, uct_view_json);
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "\"charges\":0,\"uncharges\":0"));
	assert_null(strstr(out, "\"uid\":1002"));
	assert_null(strstr(out, "\"uid\":0,"));
	/* ns 200 has no uid-1001 row and no such descendants: not listed */
	assert_null(strstr(out, "{\"ns\":200,"));
}

static void test_json_empty(void **state)
{
	struct uct_model m;
	struct uct_view_ctx c = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *s;

	uct_model_init(&m);
	uct_model_update(&m, NULL, 0, NULL, 0, 1.0);
	s = open_memstream(&buf, &len);
	uct_view_json(s, &m, &c);
	fclose(s);
	assert_true(json_valid(buf));
	assert_non_null(strstr(buf, "\"namespaces\":[],\"rows\":[]"));
	free(buf);
	uct_model_free(&m);
}

/* ---- batch table ---- */
static void test_batch(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_batch);
	int lines = 0;
	const char *p;

	assert_null(strchr(out, '\033'));	/* no escape sequences */
	for (p = out; *p; p++)
		lines += *p == '\n';
	/* summary, header, legend, lines, blank */
	assert_int_equal(lines, 4 + 2 + 9 + 1);
	/* the unit of each byte column in its label */
	assert_non_null(strstr(out, "\nNAME                 "));
	assert_non_null(strstr(out, "   NPROC MSGQUEUE(B)  SIGPENDING  MEMLOCK(B)  DENY FLAG\n"));
	/* then the legend of the two kinds of line */
	assert_non_null(strstr(out, " DENY FLAG\n" UCT_TABLE_LEGEND "\nns 1 L0 init "));
	assert_non_null(strstr(out, "\n  ns 100 L1 o1001"));	/* no tty markers */
	/* (1,1001): 6/5, over limit -> flag O */
	assert_non_null(strstr(out, "6/5"));
	/* ns 100 line: creator's 6 against max 5 */
	assert_non_null(strstr(out, "denials nproc 0 msgqueue 0 sigpending 2 memlock 0"));
}

static void test_table_fits_80(void **state)
{
	struct fx *f = *state;
	char buf[512];
	size_t i;
	int w;

	f->c.width = 80;
	w = uct_table_name_width(&f->m, &f->c);
	uct_table_header(buf, sizeof(buf), &f->m, &f->c, w);
	assert_true(strlen(buf) <= 80);
	uct_table_legend(buf, sizeof(buf), &f->m, &f->c);
	assert_true(strlen(buf) <= 80);
	for (i = 0; i < f->m.nlines; i++) {
		uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		assert_true(strlen(buf) <= 80);
	}
}

static void test_table_tty_markers(void **state)
{
	struct fx *f = *state;
	char buf[512];
	int w;

	f->c.tty = true;
	uct_model_toggle_collapse(&f->m, 100);
	w = uct_table_name_width(&f->m, &f->c);
	uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[0], w);
	assert_non_null(strstr(buf, "- ns 1 L0 init"));
	/* ns 100 is collapsed: its line is the last, marked + */
	uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[f->m.nlines - 1], w);
	assert_non_null(strstr(buf, "  + ns 100 L1 o1001"));
}

/* The row (ns, uid) of recs[n]: its type counter set to v. */
static void set_value(struct uct_rec *recs, size_t n, __u32 ns, __u32 uid, int type, __s64 v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (recs[i].ns_inum == ns && recs[i].uid == uid)
			recs[i].value[type] = v;
}

static void test_table_deltas(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs);
	const char *out;

	set_value(recs, n, 1, 0, UCT_NPROC, 13);
	uct_model_update(&f->m, recs, n, NULL, 0, 1001.0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "13+3/-"));
}

/* A cell wider than its column pushes the line right, never touches its
 * neighbour: "6/5" then "3456+1408/800K" must not read "6/53456+1408". */
static void test_table_wide_cells(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs);
	const char *out;

	set_value(recs, n, 1, 1001, UCT_MSGQUEUE, 3456);
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "6/5 3456+1408/800K"));
	/* the usual widths are unchanged: right-aligned in 12 columns */
	assert_non_null(strstr(out, "\n  uid 0                    10/-         0/-         0/-"
				    "         0/-     0\n"));
}

/* Namespaces nest to level 33: every line keeps its name, however deep. */
static void test_table_deep_names(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[UCT_MAX_LEVELS];
	char want[64];
	const char *out;
	__u32 i;

	for (i = 0; i < UCT_MAX_LEVELS; i++)
		recs[i] = mkrec(4026531837u + i, i, 4294967294u, i ? 4026531836u + i : 0,
				4294967294u, 4294967294u, UCT_MAX_LEVELS - i, 0, 0, 0, INF);
	assert_int_equal(uct_model_update(&f->m, recs, UCT_MAX_LEVELS, NULL, 0, 1001.0), 0);
	f->c.tty = true;	/* with the collapse markers: the widest names */
	out = render(f, uct_view_batch);
	for (i = 1; i < UCT_MAX_LEVELS; i++) {
		snprintf(want, sizeof(want), "- ns %u L%u o4294967294 ", 4026531837u + i, i);
		if (!strstr(out, want))
			fail_msg("no \"%s\" in\n%s", want, out);
	}
	assert_non_null(strstr(out, "uid 4294967294 "));
}

/* DENY is a count of refusals: never shown negative or as "inf". */
static void test_table_deny_huge(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	size_t n = base_snapshot(recs);
	const char *out;

	mkstat(&kv, 1, 0);
	kv.st.denials[UCT_NPROC] = 0x7fffffffffffffffULL;
	kv.st.denials[UCT_MEMLOCK] = 3;
	assert_int_equal(uct_model_update(&f->m, recs, n, &kv, 1, 1001.0), 0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\n  uid 0 "));
	assert_non_null(strstr(strstr(out, "\n  uid 0 "), "  8.0E D"));
	assert_null(strstr(out, " -8.0E"));
	assert_null(strstr(out, " inf D"));
}

/* ---- names: what runs in each namespace ---- */

/* The fixture with base_tasks(): ns 1 init(1), ns 100 nginx(300) in a
 * docker container with hostname web-1, ns 200 no process */
static void names_on(struct fx *f)
{
	struct uct_tlim tl[16];
	size_t nt = base_tasks(tl);

	f->m.cgroup_fn = test_cgroup_fn;
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
	uct_model_resolve_names(&f->m, -1, 0);
}

/* A tenant's hostname and comm with blanks cannot pass for another
 * container's id and hostname: each stays one word */
static void test_names_one_word(void **state)
{
	struct fx *f = *state;
	struct uct_tlim tl[16];
	size_t nt = base_tasks(tl), i;
	const char *out;

	for (i = 0; i < nt; i++) {
		if (tl[i].ns_inum != 100)
			continue;
		memset(tl[i].hostname, 0, sizeof(tl[i].hostname));
		strcpy(tl[i].hostname, "0123456789ab db-1");
		memset(tl[i].comm, 0, sizeof(tl[i].comm));
		strcpy(tl[i].comm, "a b\tc");
	}
	f->m.cgroup_fn = test_cgroup_fn;
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
	uct_model_resolve_names(&f->m, -1, 0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, " 3f2a1b4c5d6e 0123456789ab_db-1 a_b?c(300)\n"));
}

/* Docker's name for ns 100's container: its hostname, web-1 */
static int docker_web1(void *arg, const char *cid, char name[UCT_CNAME_MAX + 1])
{
	strcpy(name, "web-1");
	return 0;
}

/* A container named as its hostname shows the name once */
static void test_names_hostname_once(void **state)
{
	struct fx *f = *state;
	const char *out;

	f->m.docker_name_fn = docker_web1;
	names_on(f);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "      0/8.0M web-1 nginx(300)\n"));
}

static void test_names_batch(void **state)
{
	struct fx *f = *state;
	const char *out;

	/* without the task iterator, ns lines end with their cells */
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\nns 1 L0 init              -/inf      -/800K      -/7671"
				    "      -/8.0M\n"));
	names_on(f);
	out = render(f, uct_view_batch);
	/* short id, own hostname, process; the initial namespace by its
	 * process only; no process: what holds it */
	assert_non_null(strstr(out, "      -/8.0M init(1)\n"));
	assert_non_null(strstr(out, "\n  ns 100 L1 o1001           6/5   2048/800K      4/7671"
				    "      0/8.0M 3f2a1b4c5d6e web-1 nginx(300)\n"));
	assert_non_null(strstr(out, "\n    ns 200 L2 o1002         3/4   2048/800K      0/7671"
				    "      0/8.0M no task (mq)\n"));
	/* uid lines are unchanged */
	assert_non_null(strstr(out, "\n  uid 0                    10/-         0/-         0/-"
				    "         0/-     0\n"));
}

/* Bytes a terminal would act on never reach it; the hostname is left out
 * when it is the short id (docker's default) */
static void test_names_hostile_text(void **state)
{
	struct fx *f = *state;
	struct uct_tlim t[2] = {
		mktask(1, 0, 1, 1, 1, "in\033[2Jit", "h"),
		mktask(100, 1001, 9, 2, 77, "a\tb\xff", "3f2a1b4c5d6e"),
	};
	const char *out;

	f->m.cgroup_fn = test_cgroup_fn;
	assert_int_equal(uct_model_set_tasks(&f->m, t, 2), 0);
	uct_model_resolve_names(&f->m, -1, 0);
	out = render(f, uct_view_batch);
	assert_null(strchr(out, '\033'));
	assert_non_null(strstr(out, " in?[2Jit(1)\n"));
	assert_non_null(strstr(out, " 3f2a1b4c5d6e a?b?(9)\n"));
	out = render(f, uct_view_json);
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "\"comm\":\"in\\u001b[2Jit\""));
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_namespace_info{ns=\"100\",level=\"1\",container_id=\""
				    TEST_CID "\",hostname=\"3f2a1b4c5d6e\"} 1\n"));
}

/* A cgroup path a tenant with a delegated subtree can make: 15
 * components of 255 control bytes (NAME_MAX each, 3,840 bytes), each byte
 * escaped to six in JSON. */
static int long_cgroup_fn(void *arg, __u32 pid, __u64 id, char *path, size_t len,
			  size_t *trusted, __u32 *tenant)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 15 && n + 256 < len; i++) {
		path[n++] = '/';
		memset(path + n, '\x01', 255);
		n += 255;
	}
	path[n] = 0;
	*trusted = 0;
	return 0;
}

/* No record is cut: a namespace whose name is longer than the view's
 * buffer is rendered whole, and the document parses */
static void test_json_long_cgroup(void **state)
{
	struct fx *f = *state;
	struct uct_tlim tl[16];
	size_t nt = base_tasks(tl);
	const char *out, *p;

	f->m.cgroup_fn = long_cgroup_fn;
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
	uct_model_resolve_names(&f->m, -1, 0);
	out = render(f, uct_view_json);
	assert_true(json_valid(out));
	/* the whole path: 15 times a slash and 255 escaped bytes */
	p = strstr(out, "\"cgroup\":\"/\\u0001");
	assert_non_null(p);
	assert_int_equal(strspn(p + 10, "/\\u0001"), 15 * (1 + 255 * 6));
	assert_int_equal(strncmp(p + 10 + 15 * (1 + 255 * 6), "\",\"container_id\":", 17), 0);
}

/* --no-tenant-labels: neither info family, the counters unchanged */
static void test_metrics_no_tenant_labels(void **state)
{
	struct fx *f = *state;
	const char *out;
	char *with;

	names_on(f);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_namespace_info{"));
	with = strdup(strstr(out, "# TYPE ucounttop_denials "));
	f->c.no_tenant_labels = true;
	out = render(f, uct_view_openmetrics);
	assert_null(strstr(out, "ucounttop_namespace_info"));
	assert_null(strstr(out, "ucounttop_user_info"));
	assert_null(strstr(out, "web-1"));
	assert_null(strstr(out, TEST_CID));
	assert_string_equal(strstr(out, "# TYPE ucounttop_denials "), with);
	free(with);
}

static void test_names_json(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_json);

	/* unknown: every key there, null */
	assert_non_null(strstr(out, "\"rows\":3,\"pid\":null,\"comm\":null,\"hostname\":null,"
				    "\"cgroup\":null,\"container_id\":null,\"container_name\":null,\"container_owner_uid\":null,\"pod\":null,\"tasks\":null,"
				    "\"held_by\":null}"));
	names_on(f);
	out = render(f, uct_view_json);
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "{\"ns\":100,\"level\":1,\"owner_uid\":1001,"));
	assert_non_null(strstr(out, "\"rows\":2,\"pid\":300,\"comm\":\"nginx\","
				    "\"hostname\":\"web-1\",\"cgroup\":\"" TEST_CGROUP "\","
				    "\"container_id\":\"" TEST_CID "\",\"container_name\":null,\"container_owner_uid\":null,\"pod\":null,\"tasks\":3,"
				    "\"held_by\":[]}"));
	assert_non_null(strstr(out, "\"rows\":3,\"pid\":1,\"comm\":\"init\","
				    "\"hostname\":\"uct-guest\",\"cgroup\":\"/\","
				    "\"container_id\":null,\"container_name\":null,\"container_owner_uid\":null,\"pod\":null,\"tasks\":2,\"held_by\":[]}"));
	assert_non_null(strstr(out, "\"rows\":1,\"pid\":null,\"comm\":null,\"hostname\":null,"
				    "\"cgroup\":null,\"container_id\":null,\"container_name\":null,\"container_owner_uid\":null,\"pod\":null,\"tasks\":0,"
				    "\"held_by\":[\"queue\"]}"));
}

static void test_names_openmetrics(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_openmetrics);

	assert_null(strstr(out, "ucounttop_namespace_info"));
	names_on(f);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "# TYPE ucounttop_namespace info\n"));
	/* no label with an empty value: an unknown name is left out */
	assert_non_null(strstr(out, "\nucounttop_namespace_info{ns=\"1\",level=\"0\","
				    "hostname=\"uct-guest\"} 1\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_info{ns=\"100\",level=\"1\",container_id=\""
				    TEST_CID "\",hostname=\"web-1\"} 1\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_info{ns=\"200\",level=\"2\"} 1\n"));
	assert_null(strstr(out, "=\"\""));
	/* the counters' series keep their labels */
	assert_non_null(strstr(out, "\nucounttop_nproc_processes{ns=\"100\",level=\"1\",kuid=\"1001\"} 3\n"));
}

/* At 80 columns the name column gives way so that a short container id
 * shows whole, and the level of a namespace stays visible */
static void test_names_fit_80(void **state)
{
	struct fx *f = *state;
	char buf[512];
	size_t i;
	int w;

	names_on(f);
	f->c.width = 80;
	f->c.tty = true;
	w = uct_table_name_width(&f->m, &f->c);
	assert_int_equal(w, 19);
	for (i = 0; i < f->m.nlines; i++) {
		uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		if (strstr(buf, "ns 100 L1"))
			assert_non_null(strstr(buf, "8.0M 3f2a1b4c5d6e"));
		if (strstr(buf, "3f2a1b4c5d6e"))
			assert_true(strstr(buf, "3f2a1b4c5d6e") + 12 - buf <= 80);
	}
	/* wider: the name column as before ("    - ns 200 L2 o1002") */
	f->c.width = 200;
	assert_int_equal(uct_table_name_width(&f->m, &f->c), 21);
}

/* The summary says what --container and the search are, and when they
 * match nothing */
static void test_names_summary(void **state)
{
	struct fx *f = *state;
	const char *out;

	names_on(f);
	strcpy(f->m.container_filter, "3f2a1b");
	strcpy(f->m.search, "we\"b\x01");
	uct_model_relayout(&f->m);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "  container 3f2a1b (no match)  search \"we\"b?\" (no match)"));
	f->m.search[0] = 0;
	uct_model_relayout(&f->m);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "  container 3f2a1b  hooks"));
}

/* ---- MEMLOCK: counted in pages, shown in bytes ---- */

/* (1,1001) locks 7 pages (+extra), (100,1001) 2 of them and (100,1002) 5;
 * namespaces cap MEMLOCK at 2048 pages (8 MiB), as the series stores it;
 * shift: the page size */
static void memlock_update(struct fx *f, int shift, long long extra, double now)
{
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs);

	set_value(recs, n, 1, 1001, UCT_MEMLOCK, 7 + extra);
	set_value(recs, n, 100, 1001, UCT_MEMLOCK, 2);
	set_value(recs, n, 100, 1002, UCT_MEMLOCK, 5);
	f->m.page_shift = shift;
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, now), 0);
}

/* Both kinds of line in bytes, with MSGQUEUE's suffixes. */
static void test_table_memlock_bytes(void **state)
{
	struct fx *f = *state;
	/* its tasks' own MEMLOCK rlimit: 16 pages; the others unknown */
	struct uct_task_limits tl = { 100, 1001, { -1, -1, -1, 16 } };
	char buf[512], *l;
	const char *out;
	size_t i;
	int w;

	memlock_update(f, 12, 0, 1001.0);
	memlock_update(f, 12, 1, 1002.0);	/* +1 page */
	out = render(f, uct_view_batch);
	/* uid line (1,1001): 8 pages, +1, against the 2048 of ns 100 */
	l = strstr(out, "\n  uid 1001 ");
	assert_non_null(l);
	assert_non_null(strstr(l, " 32.0K+4096/8.0M     0 O\n"));
	/* namespace line of 100: its creator row (1,1001) against its max */
	l = strstr(out, "\n  ns 100 L1 o1001 ");
	assert_non_null(l);
	assert_non_null(strstr(l, "  32.0K/8.0M\n"));
	/* (100,1002) against the max of ns 200, which it created */
	assert_non_null(strstr(strstr(out, "\n    uid 1002 "), "  20.0K/8.0M     0\n"));
	/* a row that created nothing: no limit */
	l = strstr(out, "\n    uid 1001 ");
	assert_non_null(l);
	assert_non_null(strstr(l, "    8192/-     0"));
	/* no page counts left in the MEMLOCK column */
	w = uct_table_name_width(&f->m, &f->c);
	for (i = 0; i < f->m.nlines; i++) {
		uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		assert_null(strstr(buf, "/2048"));
		assert_null(strstr(buf, " 4+1/"));
	}
	/* the leaf limit of a row's own tasks (pages) in bytes too */
	uct_model_set_caller_limits(&f->m, &tl, 1);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(strstr(out, "\n    uid 1001 "), " 8192/64.0K     0"));

	/* 64 KiB pages: the same pages are 16 times the bytes */
	memlock_update(f, 16, 0, 1003.0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(strstr(out, "\n  ns 100 L1 o1001 "), "   448K/128M\n"));
}

/* Bytes never wrap: a page count past LONG_MAX bytes is shown as the
 * largest count, not negative and not "inf"; unlimited stays "inf". */
static void test_table_memlock_saturates(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs), i;
	const char *out;

	set_value(recs, n, 1, 1001, UCT_MEMLOCK, 1LL << 53);
	for (i = 0; i < n; i++)
		if (recs[i].ns_inum == 100)
			recs[i].ns_max[UCT_MEMLOCK] = INF;
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(strstr(out, "\n  ns 100 L1 o1001 "), "  8.0E/inf\n"));
	assert_null(strstr(out, "-8.0E"));
	assert_int_equal(uct_pages_to_bytes(&f->m, -(1LL << 53)), -(LLONG_MAX - 1));
	assert_int_equal(uct_pages_to_bytes(&f->m, INF), INF);
	assert_int_equal(uct_pages_to_bytes(&f->m, -3), -3 * 4096);
}

/* A kernel without the series' patch 1 copies an 8 MiB rlimit into the
 * cap as 8388608 and compares it with pages: the table and OpenMetrics
 * show the cap it enforces, 8388608 pages (32 GiB) in bytes; JSON the
 * number. */
static void test_memlock_stock_cap(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs), i;
	const char *out;

	set_value(recs, n, 1, 1001, UCT_MEMLOCK, 3000);	/* 2048 would refuse it */
	for (i = 0; i < n; i++)
		recs[i].ns_max[UCT_MEMLOCK] = recs[i].ns_inum == 1 ? INF : 8388608;
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
	assert_int_equal(f->m.ns[uct_model_find_ns(&f->m, 100)].max[UCT_MEMLOCK], 8388608);
	assert_true(f->m.ns[uct_model_find_ns(&f->m, 1)].max[UCT_MEMLOCK] == INF);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(strstr(out, "\n  ns 100 L1 o1001 "), " 11.7M/32.0G\n"));
	out = render(f, uct_view_json);
	assert_non_null(strstr(out, "\"memlock\":{\"value\":3000,\"limit\":8388608,"));
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"100\",level=\"1\","
				    "owner_uid=\"1001\"} 34359738368\n"));
	assert_non_null(strstr(out, "\nucounttop_memlock_limit_bytes{ns=\"1\",level=\"0\","
				    "kuid=\"1001\"} 34359738368\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"1\",level=\"0\","
				    "owner_uid=\"0\"} +Inf\n"));
	/* the help says what such a kernel stores */
	assert_non_null(strstr(out, "# HELP ucounttop_namespace_memlock_max_bytes A user namespace's "
				    "RLIMIT_MEMLOCK maximum (ns->rlimit_max[]) as the kernel compares "
				    "it with the page counter, in bytes: times the page size. A kernel "
				    "without the ucounttop series stores the creator's rlimit in bytes "
				    "there, so this is that rlimit times the page size, the cap such a "
				    "kernel enforces.\n"));
}

/* JSON keeps MEMLOCK in pages; OpenMetrics has it in bytes, as the
 * table, counter, limit and maximum alike, and says so. */
static void test_memlock_pages_in_json_bytes_in_metrics(void **state)
{
	struct fx *f = *state;
	const char *out;

	memlock_update(f, 12, 0, 1001.0);
	out = render(f, uct_view_json);
	assert_non_null(strstr(out, "\"memlock\":{\"value\":7,\"limit\":2048,"));
	assert_non_null(strstr(out, "\"max\":{\"nproc\":5,\"msgqueue\":819200,"
				    "\"sigpending\":7671,\"memlock\":2048}"));
	out = render(f, uct_view_openmetrics);
	/* 7 pages, its limit and the namespaces' maximum 2048 pages (8 MiB) */
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"1\",level=\"0\",kuid=\"1001\"} "
				    "28672\n"));
	assert_non_null(strstr(out, "\nucounttop_memlock_limit_bytes{ns=\"1\",level=\"0\","
				    "kuid=\"1001\"} 8388608\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"100\",level=\"1\","
				    "owner_uid=\"1001\"} 8388608\n"));
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"100\",level=\"1\",kuid=\"1002\"} "
				    "20480\n"));
	assert_non_null(strstr(out, "# TYPE ucounttop_memlock_bytes gauge\n"
				    "# UNIT ucounttop_memlock_bytes bytes\n"
				    "# HELP ucounttop_memlock_bytes RLIMIT_MEMLOCK counter of a row (the "
				    "struct ucounts of user namespace ns and global uid kuid), in bytes of locked "
				    "memory (pages times the page size).\n"));
	assert_null(strstr(out, "pages)."));
	assert_null(strstr(out, "} 7\n"));
	/* 64 KiB pages: the same pages are 16 times the bytes */
	memlock_update(f, 16, 0, 1003.0);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"1\",level=\"0\",kuid=\"1001\"} "
				    "458752\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"100\",level=\"1\","
				    "owner_uid=\"1001\"} 134217728\n"));
}

/* Bytes that a long long cannot hold are +Inf (-Inf below), never a
 * wrapped number; unlimited stays +Inf. */
static void test_metrics_memlock_saturates(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	size_t n = base_snapshot(recs), i;
	const char *out;

	set_value(recs, n, 1, 1001, UCT_MEMLOCK, 1LL << 53);
	set_value(recs, n, 100, 1001, UCT_MEMLOCK, -(1LL << 53));
	set_value(recs, n, 100, 1002, UCT_MEMLOCK, (LLONG_MAX >> 12));
	for (i = 0; i < n; i++)
		recs[i].ns_max[UCT_MEMLOCK] = recs[i].ns_inum == 100 ? INF :
					      recs[i].ns_inum == 200 ? (LLONG_MAX >> 12) + 1 : 2048;
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"1\",level=\"0\",kuid=\"1001\"} "
				    "+Inf\n"));
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"100\",level=\"1\",kuid=\"1001\"} "
				    "-Inf\n"));
	/* the largest page count that fits, exactly */
	assert_non_null(strstr(out, "\nucounttop_memlock_bytes{ns=\"100\",level=\"1\",kuid=\"1002\"} "
				    "9223372036854771712\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"100\",level=\"1\","
				    "owner_uid=\"1001\"} +Inf\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_memlock_max_bytes{ns=\"200\",level=\"2\","
				    "owner_uid=\"1002\"} +Inf\n"));
	assert_non_null(strstr(out, "\nucounttop_memlock_limit_bytes{ns=\"1\",level=\"0\","
				    "kuid=\"1001\"} +Inf\n"));
	assert_null(strstr(out, "} -9"));
}

/* ---- uids as namespaces map them ---- */

static void names_update(struct fx *f)
{
	struct uct_rec recs[16];
	size_t n = names_snapshot(recs);

	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
}

/* The table names rows and owners as their namespaces know them. */
static void test_table_ns_uids(void **state)
{
	struct fx *f = *state;
	const char *out;

	names_update(f);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\n  uid 1000 "));
	assert_non_null(strstr(out, "\n  ns 10 L1 o1000 "));
	assert_non_null(strstr(out, "\n    uid 0 "));
	assert_non_null(strstr(out, "\n    uid 2000 "));
	/* the owner of 20 as its parent, namespace 10, maps it */
	assert_non_null(strstr(out, "\n    ns 20 L2 o2000 "));
	/* sorted by the uid shown: 3000, then the unmapped one */
	assert_non_null(strstr(out, "\n      uid 3000 "));
	assert_true(strstr(out, "uid 3000 ") < strstr(out, "uid -(k1500) "));
	assert_null(strstr(out, "uid 1500"));
	/* the summary names what --uid filters by */
	assert_non_null(strstr(out, "  kuid all  "));
}

/* Unmapped: "-" and the kuid, one word, so the rows stay apart. */
static void test_table_unmapped_uid(void **state)
{
	struct fx *f = *state;
	char buf[512];
	size_t i;
	int w, seen = 0;

	names_update(f);
	w = uct_table_name_width(&f->m, &f->c);
	for (i = 0; i < f->m.nlines; i++) {
		uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		if (strstr(buf, "uid -(k1500) ")) {
			seen++;
			/* its cells follow the name: nproc 1, all of it new
			 * since the fixture's snapshot, no limit */
			assert_non_null(strstr(buf, "-(k1500)       1+1/-         0/-"));
		}
	}
	assert_int_equal(seen, 1);
}

/* --kuid: the global kuids, as before, in kuid order. */
static void test_table_kuid(void **state)
{
	struct fx *f = *state;
	const char *out;

	f->m.show_kuid = true;
	names_update(f);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\n    ns 20 L2 o1000 "));
	assert_non_null(strstr(out, "\n    uid 900 "));
	assert_non_null(strstr(out, "\n      uid 1500 "));
	assert_true(strstr(out, "\n      uid 1000 ") < strstr(out, "\n      uid 1500 "));
	assert_null(strstr(out, "uid 2000"));
	assert_null(strstr(out, "uid 3000"));
	assert_null(strstr(out, "-(k"));
}

/* JSON: uid stays the kuid; ns_uid and owner_ns_uid are added, null when
 * unmapped; --kuid changes nothing there. */
static void test_json_ns_uids(void **state)
{
	struct fx *f = *state;
	const char *out;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		f->m.show_kuid = pass;
		names_update(f);
		out = render(f, uct_view_json);
		assert_true(json_valid(out));
		assert_non_null(strstr(out, "{\"ns\":20,\"level\":2,\"uid\":1000,\"parent_ns\":10,"
					    "\"parent_uid\":1000,\"ns_uid\":3000,\"user\":null,\"refcount\":1,"));
		assert_non_null(strstr(out, "{\"ns\":20,\"level\":2,\"uid\":1500,\"parent_ns\":10,"
					    "\"parent_uid\":1000,\"ns_uid\":null,"));
		assert_non_null(strstr(out, "{\"ns\":10,\"level\":1,\"uid\":1000,\"parent_ns\":1,"
					    "\"parent_uid\":1000,\"ns_uid\":2000,"));
		assert_non_null(strstr(out, "{\"ns\":1,\"level\":0,\"uid\":1000,\"parent_ns\":null,"
					    "\"parent_uid\":null,\"ns_uid\":1000,"));
		assert_non_null(strstr(out, "{\"ns\":20,\"level\":2,\"owner_uid\":1000,"
					    "\"parent_ns\":10,\"creator_uid\":1000,"
					    "\"owner_ns_uid\":2000,\"max\":"));
		assert_non_null(strstr(out, "{\"ns\":10,\"level\":1,\"owner_uid\":1000,"
					    "\"parent_ns\":1,\"creator_uid\":1000,"
					    "\"owner_ns_uid\":1000,\"max\":"));
	}
}

/* OpenMetrics keeps its labels: uid is the kuid. */
static void test_openmetrics_kuid_labels(void **state)
{
	struct fx *f = *state;
	const char *out;

	names_update(f);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_nproc_processes{ns=\"20\",level=\"2\",kuid=\"1000\"} "
				    "1\n"));
	assert_non_null(strstr(out, "ucounttop_nproc_processes{ns=\"20\",level=\"2\",kuid=\"1500\"}"));
	assert_null(strstr(out, "kuid=\"3000\""));
}

/* ---- user names, from each namespace's own passwd file ---- */

/* names_snapshot() with its processes and their files (snapshots.h);
 * text: the container's file instead of TEST_CTR_PASSWD */
static struct test_passwd users_tp;
static void view_text(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c);

static void users_on(struct fx *f, const char *ctr)
{
	struct uct_rec recs[16];
	struct uct_tlim tl[8];
	size_t n = names_snapshot(recs), nt = names_tasks(tl);

	memset(&users_tp, 0, sizeof(users_tp));
	users_tp.text[2] = ctr;
	f->m.passwd_fn = test_passwd_fn;
	f->m.passwd_arg = &users_tp;
	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1001.0), 0);
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
	uct_model_resolve_names(&f->m, -1, 0);
}

/* Each uid line ends its name with the name its namespace gives it */
static void test_users_batch(void **state)
{
	struct fx *f = *state;
	const char *out;

	users_on(f, NULL);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\n  uid 1000 (alice) "));
	/* namespace 10's own file: app, not the host's bob */
	assert_non_null(strstr(out, "\n    uid 2000 (app) "));
	assert_non_null(strstr(out, "\n    uid 0 (root) "));
	assert_null(strstr(out, "(bob)"));
	/* nobody names 3000; an unmapped uid is never named */
	assert_non_null(strstr(out, "\n      uid 3000   "));
	assert_non_null(strstr(out, "\n      uid -(k1500)   "));
	/* --kuid: the initial namespace's names of the kuids */
	f->m.show_kuid = true;
	uct_model_relayout(&f->m);
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "\n    uid 1000 (alice) "));
	assert_non_null(strstr(out, "\n      uid 1500 (k1500) "));
	assert_non_null(strstr(out, "\n    uid 900   "));
	assert_null(strstr(out, "(app)"));
}

/* A long name is cut (ps's '+'), never moves a cell: at 80 columns every
 * uid line fits and its cells start where the others' do */
static void test_users_fit_80(void **state)
{
	struct fx *f = *state;
	char buf[512];
	const char *out;
	size_t i;
	int w, cut = 0;

	users_on(f, "a-very-long-user-name-indeed:x:2000:2000::/:/bin/sh\n"
		    "root:x:0:0::/:/bin/sh\n");
	/* batch: at most 16 of it */
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "uid 2000 (a-very-long-use+) "));
	names_on(f);	/* the namespaces' process names too */
	users_on(f, "a-very-long-user-name-indeed:x:2000:2000::/:/bin/sh\n"
		    "root:x:0:0::/:/bin/sh\n");
	f->c.width = 80;
	f->c.tty = true;
	w = uct_table_name_width(&f->m, &f->c);
	assert_int_equal(w, 19);
	for (i = 0; i < f->m.nlines; i++) {
		const char *u;

		if (f->m.lines[i].is_ns)
			continue;
		uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		assert_true(strlen(buf) <= 80);
		/* the name fills the column, the first cell follows it */
		assert_int_equal(buf[w], ' ');
		assert_true(buf[w + 1] == ' ' || (buf[w + 1] >= '0' && buf[w + 1] <= '9'));
		assert_non_null(strstr(buf, "/"));
		assert_true(strstr(buf, "/") - buf > w);
		u = strstr(buf, "uid 2000 (");
		if (u) {
			/* "    uid 2000 (a+)" fits 19 */
			assert_true(u - buf + 10 < w);
			assert_non_null(strstr(buf, "+) "));
			cut++;
		}
	}
	assert_int_equal(cut, 1);
}

/* The batch view's lines are uct_table_line()'s, made with the name
 * column's width and stripped of trailing blanks, whichever way it makes
 * them (each name once, and again only to cut a user name to a column) */
static void assert_batch_is_lines(struct fx *f)
{
	const char *out = render(f, uct_view_batch), *p = out;
	char buf[512];
	size_t i, n;
	int w = uct_table_name_width(&f->m, &f->c), skip;

	/* the summary's 4 lines, the header and the legend */
	for (skip = 0; skip < 6; skip++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	for (i = 0; i < f->m.nlines; i++) {
		n = uct_table_line(buf, sizeof(buf), &f->m, &f->c, &f->m.lines[i], w);
		while (n && buf[n - 1] == ' ')
			n--;
		buf[n] = 0;
		assert_memory_equal(p, buf, n);
		assert_int_equal(p[n], '\n');
		p += n + 1;
	}
	assert_string_equal(p, "\n");
}

static void test_batch_is_table_lines(void **state)
{
	struct fx *f = *state;

	assert_batch_is_lines(f);
	users_on(f, "a-very-long-user-name-indeed:x:2000:2000::/:/bin/sh\n"
		    "root:x:0:0::/:/bin/sh\n");
	assert_batch_is_lines(f);
	names_on(f);
	users_on(f, "a-very-long-user-name-indeed:x:2000:2000::/:/bin/sh\n"
		    "root:x:0:0::/:/bin/sh\n");
	assert_batch_is_lines(f);
	/* a width cuts names: those lines are made again for the column */
	f->c.width = 80;
	assert_batch_is_lines(f);
	f->c.tty = true;	/* 19 columns: "    uid 2000 (a+)" */
	assert_batch_is_lines(f);
	f->c.width = 60;
	assert_batch_is_lines(f);
}

/* Names are the container's text: in the table printable ASCII only, in
 * JSON and OpenMetrics escaped */
static void test_users_hostile(void **state)
{
	struct fx *f = *state;
	const char *out;

	users_on(f, "a\"b\\c:x:2000:2000::/:/bin/sh\n"
		    "jos\xc3\xa9:x:0:0::/:/bin/sh\n");
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, " (a\"b\\c) "));
	assert_non_null(strstr(out, " (jos?" "?) "));
	out = render(f, uct_view_json);
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "\"user\":\"a\\\"b\\\\c\""));
	assert_non_null(strstr(out, "\"user\":\"jos\\u00c3\\u00a9\""));
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_user_info{ns=\"10\",kuid=\"1000\",user=\"a\\\"b\\\\c\"} 1\n"));
	assert_non_null(strstr(out, "ucounttop_user_info{ns=\"10\",kuid=\"900\",user=\"jos?" "?\"} 1\n"));
}

/* JSON: "user" names ns_uid in the row's namespace, null when nothing
 * does; --kuid changes nothing there */
static void test_users_json(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_json);
	int pass;

	/* no files read: every row has the key, null */
	assert_non_null(strstr(out, "\"ns_uid\":0,\"user\":null,"));
	for (pass = 0; pass < 2; pass++) {
		f->m.show_kuid = pass;
		users_on(f, NULL);
		out = render(f, uct_view_json);
		assert_true(json_valid(out));
		assert_non_null(strstr(out, "{\"ns\":1,\"level\":0,\"uid\":1000,\"parent_ns\":null,"
					    "\"parent_uid\":null,\"ns_uid\":1000,\"user\":\"alice\","));
		assert_non_null(strstr(out, "\"uid\":1000,\"parent_ns\":1,\"parent_uid\":1000,"
					    "\"ns_uid\":2000,\"user\":\"app\","));
		assert_non_null(strstr(out, "\"uid\":900,\"parent_ns\":1,\"parent_uid\":1000,"
					    "\"ns_uid\":0,\"user\":\"root\","));
		assert_non_null(strstr(out, "\"ns_uid\":3000,\"user\":null,"));
		assert_non_null(strstr(out, "\"ns_uid\":null,\"user\":null,"));
	}
}

/* An info family joined on (ns, uid), not a label of the counters */
static void test_users_openmetrics(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_openmetrics);

	assert_null(strstr(out, "ucounttop_user"));
	users_on(f, NULL);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "# TYPE ucounttop_user info\n"));
	assert_non_null(strstr(out, "\nucounttop_user_info{ns=\"1\",kuid=\"1000\",user=\"alice\"} 1\n"));
	assert_non_null(strstr(out, "\nucounttop_user_info{ns=\"10\",kuid=\"1000\",user=\"app\"} 1\n"));
	assert_non_null(strstr(out, "\nucounttop_user_info{ns=\"10\",kuid=\"900\",user=\"root\"} 1\n"));
	assert_null(strstr(out, "ucounttop_user_info{ns=\"20\""));
	assert_null(strstr(out, "user=\"app\",type"));
	assert_non_null(strstr(out, "\nucounttop_nproc_processes{ns=\"10\",level=\"1\",kuid=\"1000\"} "
				    "3\n"));
	/* text 0.0.4: a gauge of the same name */
	out = render(f, view_text);
	assert_non_null(strstr(out, "# TYPE ucounttop_user_info gauge\n"));
}

/* ---- OpenMetrics ---- */

/* The families, in order, as "# TYPE" and "# UNIT" lines: the names of
 * ucounttop(8) and of the alerting rules written against them */
static const char om_families[] =
	"# TYPE ucounttop_nproc_processes gauge\n# UNIT ucounttop_nproc_processes processes\n"
	"# TYPE ucounttop_msgqueue_bytes gauge\n# UNIT ucounttop_msgqueue_bytes bytes\n"
	"# TYPE ucounttop_sigpending_signals gauge\n# UNIT ucounttop_sigpending_signals signals\n"
	"# TYPE ucounttop_memlock_bytes gauge\n# UNIT ucounttop_memlock_bytes bytes\n"
	"# TYPE ucounttop_nproc_limit_processes gauge\n"
	"# UNIT ucounttop_nproc_limit_processes processes\n"
	"# TYPE ucounttop_msgqueue_limit_bytes gauge\n# UNIT ucounttop_msgqueue_limit_bytes bytes\n"
	"# TYPE ucounttop_sigpending_limit_signals gauge\n"
	"# UNIT ucounttop_sigpending_limit_signals signals\n"
	"# TYPE ucounttop_memlock_limit_bytes gauge\n# UNIT ucounttop_memlock_limit_bytes bytes\n"
	"# TYPE ucounttop_namespace_nproc_max_processes gauge\n"
	"# UNIT ucounttop_namespace_nproc_max_processes processes\n"
	"# TYPE ucounttop_namespace_msgqueue_max_bytes gauge\n"
	"# UNIT ucounttop_namespace_msgqueue_max_bytes bytes\n"
	"# TYPE ucounttop_namespace_sigpending_max_signals gauge\n"
	"# UNIT ucounttop_namespace_sigpending_max_signals signals\n"
	"# TYPE ucounttop_namespace_memlock_max_bytes gauge\n"
	"# UNIT ucounttop_namespace_memlock_max_bytes bytes\n"
	"# TYPE ucounttop_namespace info\n"
	"# TYPE ucounttop_denials counter\n"
	"# TYPE ucounttop_limit_hits counter\n"
	"# TYPE ucounttop_charges counter\n"
	"# TYPE ucounttop_uncharges counter\n"
	"# TYPE ucounttop_row_over_limit gauge\n"
	"# TYPE ucounttop_row_imbalanced gauge\n"
	"# TYPE ucounttop_container_nproc_processes gauge\n"
	"# UNIT ucounttop_container_nproc_processes processes\n"
	"# TYPE ucounttop_container_denials counter\n"
	"# TYPE ucounttop_drops counter\n"
	"# TYPE ucounttop_passwd_timeouts counter\n"
	"# TYPE ucounttop_passwd_quarantined gauge\n"
	"# TYPE ucounttop_passwd_readers_stuck gauge\n"
	"# TYPE ucounttop_build info\n"
	"# TYPE ucounttop_degraded gauge\n"
	"# TYPE ucounttop_scrape_duration_seconds gauge\n"
	"# UNIT ucounttop_scrape_duration_seconds seconds\n"
	"# TYPE ucounttop_scrape_errors counter\n"
	"# TYPE ucounttop_last_snapshot_timestamp_seconds gauge\n"
	"# UNIT ucounttop_last_snapshot_timestamp_seconds seconds\n";

/* The "# TYPE" and "# UNIT" lines of s */
static char *families_of(const char *s)
{
	char *out = calloc(1, strlen(s) + 1), *o = out;
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		assert_non_null(nl);
		if (!strncmp(s, "# TYPE ", 7) || !strncmp(s, "# UNIT ", 7)) {
			memcpy(o, s, nl + 1 - s);
			o += nl + 1 - s;
		}
	}
	return out;
}

/* Every family of the naming guide, in order, each with its unit; none
 * of the old ones (one family for four units, memlock in pages, a flag
 * label whose series come and go) */
static void test_openmetrics_families(void **state)
{
	static const char *const gone[] = {
		"ucounttop_rlimit_value", "ucounttop_rlimit_limit", "ucounttop_namespace_rlimit_max",
		"ucounttop_row_flag", "flag=", "type=\"nproc\"} 10\n",
	};
	struct fx *f = *state;
	const char *out;
	char *fam;
	size_t i;

	f->c.events = true;
	names_on(f);
	out = render(f, uct_view_openmetrics);
	fam = families_of(out);
	assert_string_equal(fam, om_families);
	free(fam);
	for (i = 0; i < ARRAY_SIZE(gone); i++)
		if (strstr(out, gone[i]))
			fail_msg("'%s' is in the document", gone[i]);
	/* each family's name ends in its unit: OpenMetrics 1.0 asks it */
	for (out = strstr(out, "# UNIT "); out; out = strstr(out + 1, "# UNIT ")) {
		char name[128], unit[32];

		assert_int_equal(sscanf(out, "# UNIT %127s %31s", name, unit), 2);
		assert_true(strlen(name) > strlen(unit) + 1);
		assert_int_equal(name[strlen(name) - strlen(unit) - 1], '_');
		assert_string_equal(name + strlen(name) - strlen(unit), unit);
	}
}

/* Samples of out whose labels start with prefix ({ns="..",...) */
static int samples_with(const char *out, const char *prefix)
{
	const char *p = out;
	int n = 0;

	while ((p = strstr(p, prefix))) {
		n++;
		p += strlen(prefix);
	}
	return n;
}

/* The cardinality ucounttop(8) states: 18 series a row with its limits
 * (14 without: a row whose limits are not known), 26 with --events; 4
 * maxima a namespace, and its info */
static void test_openmetrics_cardinality(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_openmetrics);

	assert_int_equal(samples_with(out, "{ns=\"1\",level=\"0\",kuid=\"1001\""), 18);
	assert_int_equal(samples_with(out, "{ns=\"100\",level=\"1\",kuid=\"1001\""), 14);
	assert_int_equal(samples_with(out, "_max_processes{ns=\"200\",level=\"2\",") +
			 samples_with(out, "_max_bytes{ns=\"200\",level=\"2\",") +
			 samples_with(out, "_max_signals{ns=\"200\",level=\"2\","), 4);
	f->c.events = true;
	out = render(f, uct_view_openmetrics);
	assert_int_equal(samples_with(out, "{ns=\"1\",level=\"0\",kuid=\"1001\""), 26);
	f->c.events = false;
}

static void test_openmetrics(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_openmetrics);
	char *copy = strdup(out), *line, *save = NULL;
	size_t len = strlen(out);

	assert_true(len > 6 && !strcmp(out + len - 6, "# EOF\n"));
	assert_non_null(strstr(out, "\nucounttop_msgqueue_bytes{ns=\"200\",level=\"2\",kuid=\"1002\"} "
				    "2048\n"));
	assert_non_null(strstr(out, "\nucounttop_nproc_processes{ns=\"1\",level=\"0\",kuid=\"0\"} 10\n"));
	assert_non_null(strstr(out, "\nucounttop_sigpending_signals{ns=\"100\",level=\"1\",kuid=\"1001\"} "
				    "4\n"));
	assert_non_null(strstr(out, "\nucounttop_nproc_limit_processes{ns=\"1\",level=\"0\",kuid=\"1001\"} "
				    "5\n"));
	assert_non_null(strstr(out, "\nucounttop_msgqueue_limit_bytes{ns=\"1\",level=\"0\",kuid=\"1001\"} "
				    "819200\n"));
	/* a row that created no namespace has no limit */
	assert_null(strstr(out, "_limit_processes{ns=\"1\",level=\"0\",kuid=\"0\"}"));
	assert_non_null(strstr(out, "\nucounttop_namespace_nproc_max_processes{ns=\"1\",level=\"0\","
				    "owner_uid=\"0\"} +Inf\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_nproc_max_processes{ns=\"200\",level=\"2\","
				    "owner_uid=\"1002\"} 4\n"));
	assert_non_null(strstr(out, "\nucounttop_namespace_sigpending_max_signals{ns=\"100\",level=\"1\","
				    "owner_uid=\"1001\"} 7671\n"));
	assert_non_null(strstr(out, "# TYPE ucounttop_nproc_processes gauge\n"
				    "# UNIT ucounttop_nproc_processes processes\n"
				    "# HELP ucounttop_nproc_processes RLIMIT_NPROC counter of a row (the "
				    "struct ucounts of user namespace ns and global uid kuid), in processes.\n"));
	assert_non_null(strstr(out, "# TYPE ucounttop_denials counter\n# HELP ucounttop_denials "));
	assert_non_null(strstr(out, "ucounttop_denials_total{ns=\"100\",level=\"1\",kuid=\"1001\","
				    "type=\"sigpending\"} 2\n"));
	/* the row state: a sample for each row, 0 or 1 */
	assert_non_null(strstr(out, "\nucounttop_row_over_limit{ns=\"1\",level=\"0\",kuid=\"1001\"} 1\n"
				    "ucounttop_row_over_limit{ns=\"1\",level=\"0\",kuid=\"1002\"} 0\n"));
	assert_non_null(strstr(out, "\nucounttop_row_imbalanced{ns=\"1\",level=\"0\",kuid=\"1001\"} 0\n"));
	/* the exporter: what it is, its cost, its snapshot's time */
	assert_non_null(strstr(out, "\nucounttop_build_info{version=\"" UCT_VERSION "\","
				    "snapshot=\"iter/task\",hooks=\"fexit:x\"} 1\n"));
	assert_non_null(strstr(out, "\nucounttop_scrape_duration_seconds 0.000000\n"));
	assert_non_null(strstr(out, "\nucounttop_scrape_errors_total 0\n"));
	assert_non_null(strstr(out, "\nucounttop_last_snapshot_timestamp_seconds 1767225600.000\n"));
	assert_null(strstr(out, "=\"\""));
	/* every sample line: name[{labels}] value */
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *brace, *sp;

		if (line[0] == '#')
			continue;
		brace = strchr(line, '{');
		sp = strrchr(line, ' ');
		assert_non_null(sp);
		assert_true(strncmp(line, "ucounttop_", 10) == 0);
		assert_true(brace ? sp[-1] == '}' : !strchr(line, '}'));
		assert_true(isdigit((unsigned char)sp[1]) || sp[1] == '+' || sp[1] == '-');
	}
	free(copy);
}

/* A row's state gauges are there for every row shown, whatever its
 * flags, with no "new" flag: series that do not come and go */
static void test_openmetrics_row_state(void **state)
{
	struct fx *f = *state;
	const char *out = render(f, uct_view_openmetrics);
	size_t i, over = 0, imb = 0, shown = 0;
	const char *p;
	char *before;

	for (i = 0; i < f->m.nrows; i++)
		shown += f->m.rows[i].visible && f->m.ns[f->m.rows[i].ns].visible;
	assert_int_equal(shown, 6);
	for (p = out; (p = strstr(p, "\nucounttop_row_over_limit{")); p++)
		over++;
	for (p = out; (p = strstr(p, "\nucounttop_row_imbalanced{")); p++)
		imb++;
	assert_int_equal(over, shown);
	assert_int_equal(imb, shown);
	/* a new row, or one with denials, is not a state of its own */
	before = strdup(out);
	for (i = 0; i < f->m.nrows; i++)
		f->m.rows[i].flags |= UCT_F_NEW | UCT_F_DENIALS;
	assert_string_equal(render(f, uct_view_openmetrics), before);
	free(before);
	/* imbalanced: (1,1001) counts less than its namespaces' rows */
	f->m.rows[uct_model_find_row(&f->m, 1, 1001)].flags |= UCT_F_IMBALANCED;
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_row_imbalanced{ns=\"1\",level=\"0\",kuid=\"1001\"} 1\n"
				    "ucounttop_row_imbalanced{ns=\"1\",level=\"0\",kuid=\"1002\"} 0\n"));
}

/* No label with an empty value anywhere, info families included: an
 * unknown container, hostname, snapshot source or hook list is no label */
static void test_openmetrics_no_empty_labels(void **state)
{
	struct fx *f = *state;
	const char *out;

	names_on(f);
	f->c.snapshot_src = "";
	f->c.hooks = NULL;
	out = render(f, uct_view_openmetrics);
	assert_null(strstr(out, "=\"\""));
	assert_non_null(strstr(out, "\nucounttop_build_info{version=\"" UCT_VERSION "\"} 1\n"));
	out = render(f, view_text);
	assert_null(strstr(out, "=\"\""));
	users_on(f, NULL);
	out = render(f, uct_view_openmetrics);
	assert_null(strstr(out, "=\"\""));
	assert_non_null(strstr(out, "\nucounttop_user_info{"));
}

/* What the exporter says of itself comes from the view's context */
static void test_openmetrics_scrape(void **state)
{
	struct fx *f = *state;
	const char *out;

	f->c.scrape_seconds = 0.0125;
	f->c.scrape_errors = 3;
	f->c.wall = (struct timespec){ .tv_sec = 1767225601, .tv_nsec = 250999999 };
	f->c.snapshot_src = "iter/ucounts";
	f->c.hooks = "tp_btf:ucounts_rlimit_refused \"x\"";
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_scrape_duration_seconds 0.012500\n"));
	assert_non_null(strstr(out, "\nucounttop_scrape_errors_total 3\n"));
	assert_non_null(strstr(out, "\nucounttop_last_snapshot_timestamp_seconds 1767225601.250\n"));
	assert_non_null(strstr(out, "\nucounttop_build_info{version=\"" UCT_VERSION "\","
				    "snapshot=\"iter/ucounts\",hooks=\"tp_btf:ucounts_rlimit_refused "
				    "\\\"x\\\"\"} 1\n# TYPE ucounttop_degraded gauge\n"));
	/* no degraded: text: 0; one: 1 */
	assert_non_null(strstr(out, "\nucounttop_degraded 0\n"));
	f->c.degraded = "no iter/ucounts (kernel without the ucounttop series)";
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "\nucounttop_degraded 1\n"));
	f->c.degraded = "";
	out = render(f, view_text);
	assert_non_null(strstr(out, "# TYPE ucounttop_build_info gauge\n"));
	assert_non_null(strstr(out, "# TYPE ucounttop_scrape_errors_total counter\n"
				    "# HELP ucounttop_scrape_errors_total "));
	assert_null(strstr(out, "# UNIT"));
}

/* Counters are unsigned: printed as such, never negative, never +Inf. */
static void test_openmetrics_counters_unsigned(void **state)
{
	struct fx *f = *state;
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	size_t n = base_snapshot(recs);
	const char *out;

	mkstat(&kv, 100, 1001);
	kv.st.denials[UCT_NPROC] = 0x8000000000000005ULL;
	kv.st.limit_hits[UCT_NPROC] = 0x7fffffffffffffffULL;
	assert_int_equal(uct_model_update(&f->m, recs, n, &kv, 1, 1001.0), 0);
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_denials_total{ns=\"100\",level=\"1\",kuid=\"1001\","
				    "type=\"nproc\"} 9223372036854775813\n"));
	assert_non_null(strstr(out, "ucounttop_limit_hits_total{ns=\"100\",level=\"1\","
				    "kuid=\"1001\",type=\"nproc\"} 9223372036854775807\n"));
	assert_null(strstr(out, "_total{ns=\"100\",level=\"1\",kuid=\"1001\",type=\"nproc\"} -"));
}

/* Runs the kernel skipped are drops, in every format, by their name. */
static void test_recursion_misses_reported(void **state)
{
	struct fx *f = *state;
	const char *out;

	f->m.counters[UCT_CNT_RB_DROPS] = 3;
	f->m.counters[UCT_CNT_MISSED] = 7;
	out = render(f, uct_view_json);
	assert_non_null(strstr(out, "\"ringbuf_drops\":3,"));
	assert_non_null(strstr(out, "\"recursion_misses\":7,"));
	out = render(f, uct_view_openmetrics);
	assert_non_null(strstr(out, "ucounttop_drops_total{kind=\"recursion_misses\"} 7\n"));
	assert_non_null(strstr(out, "ucounttop_drops_total{kind=\"ringbuf\"} 3\n"));
	/* the --events count is not a drop */
	assert_null(strstr(out, "kind=\"events\""));
	out = render(f, uct_view_batch);
	assert_non_null(strstr(out, "  drops 3/0  missed 7\n"));
}

/* ---- Prometheus text format 0.0.4 (--listen) ---- */
static void view_text(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	uct_view_metrics(f, m, c, UCT_METRICS_TEXT);
}

/* The lines of s that are not comments, in order. */
static char *samples_of(const char *s)
{
	char *out = calloc(1, strlen(s) + 1), *o = out;
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		assert_non_null(nl);
		if (*s != '#') {
			memcpy(o, s, nl + 1 - s);
			o += nl + 1 - s;
		}
	}
	return out;
}

/*
 * Each sample's name, against the TYPE line above it: text 0.0.4 names
 * the sample itself (ucounttop_denials_total counter), OpenMetrics the
 * family, whose counter samples add _total. Returns the number of
 * samples checked.
 */
static int check_types(const char *s, bool om)
{
	char name[128] = "", type[32] = "";
	int n = 0;

	for (; *s; s = strchr(s, '\n') + 1) {
		size_t len = strcspn(s, "{ \n");
		char want[160];

		if (!strncmp(s, "# TYPE ", 7)) {
			assert_int_equal(sscanf(s + 7, "%127s %31s", name, type), 2);
			continue;
		}
		if (*s == '#')
			continue;
		snprintf(want, sizeof(want), "%s%s", name,
			 !om ? "" : !strcmp(type, "counter") ? "_total" :
			 !strcmp(type, "info") ? "_info" : "");
		if (len != strlen(want) || strncmp(s, want, len))
			fail_msg("sample '%.*s' under '# TYPE %s %s'", (int)len, s, name, type);
		n++;
	}
	return n;
}

static void test_prometheus_text(void **state)
{
	static const char *const counters[] = {
		"ucounttop_denials", "ucounttop_limit_hits", "ucounttop_charges",
		"ucounttop_uncharges", "ucounttop_drops", "ucounttop_scrape_errors",
	};
	struct fx *f = *state;
	char *om, *tx, *a, *b, want[256];
	size_t i, len;

	f->c.events = true;
	names_on(f);
	om = strdup(render(f, uct_view_openmetrics));
	tx = strdup(render(f, view_text));
	len = strlen(tx);
	/* the same samples, in the same order */
	a = samples_of(om);
	b = samples_of(tx);
	assert_true(strlen(a) > 1000);
	assert_string_equal(a, b);
	assert_int_equal(check_types(om, true), check_types(tx, false));
	/* no "# EOF": in 0.0.4 it would be a comment, not the end */
	assert_null(strstr(tx, "# EOF"));
	assert_true(len > 0 && tx[len - 1] == '\n');
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		snprintf(want, sizeof(want), "# TYPE %s_total counter\n# HELP %s_total ", counters[i],
			 counters[i]);
		assert_non_null(strstr(tx, want));
		snprintf(want, sizeof(want), "# TYPE %s counter\n# HELP %s ", counters[i], counters[i]);
		assert_non_null(strstr(om, want));
		assert_null(strstr(tx, want));
	}
	/* no info type in 0.0.4: a gauge named as its samples */
	assert_non_null(strstr(om, "# TYPE ucounttop_namespace info\n"));
	assert_non_null(strstr(tx, "# TYPE ucounttop_namespace_info gauge\n"));
	assert_non_null(strstr(om, "# TYPE ucounttop_build info\n"));
	assert_non_null(strstr(tx, "# TYPE ucounttop_build_info gauge\n"));
	/* gauges are named alike; their unit is said in OpenMetrics only */
	assert_non_null(strstr(tx, "# TYPE ucounttop_memlock_bytes gauge\n"
				   "# HELP ucounttop_memlock_bytes RLIMIT_MEMLOCK counter "));
	assert_non_null(strstr(om, "# TYPE ucounttop_memlock_bytes gauge\n"
				   "# UNIT ucounttop_memlock_bytes bytes\n"
				   "# HELP ucounttop_memlock_bytes RLIMIT_MEMLOCK counter "));
	assert_null(strstr(tx, "# UNIT"));
	assert_non_null(strstr(tx, "# TYPE ucounttop_namespace_nproc_max_processes gauge\n"));
	assert_non_null(strstr(tx, "\nucounttop_namespace_nproc_max_processes{ns=\"1\",level=\"0\","
				   "owner_uid=\"0\"} +Inf\n"));
	free(a);
	free(b);
	free(om);
	free(tx);
}

/*
 * The documents tests/host/openmetrics-host.sh gives the parsers a
 * Prometheus user has (prometheus_client, promtool): with
 * UCT_METRICS_DOCS=DIR, DIR/listen/ gets each format of two fixtures,
 * named as guest/tests/5C exports what --listen served. The first has
 * every family: tenant names, --events counts, denials, memlock in bytes,
 * a row over its limit, the exporter's own; the second user names.
 */
static void write_doc(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/listen/%s", dir, name);
	out = fopen(path, "w");
	if (!out)
		fail_msg("%s: cannot create it", path);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

static void test_metrics_documents(void **state)
{
	struct fx *f = *state;
	const char *dir = getenv("UCT_METRICS_DOCS");
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	size_t n = base_snapshot(recs);
	const char *om, *tx;

	set_value(recs, n, 1, 1001, UCT_MEMLOCK, 7);
	mkstat(&kv, 100, 1001);
	kv.st.denials[UCT_NPROC] = 5;
	kv.st.limit_hits[UCT_NPROC] = 5;
	kv.st.charges[UCT_NPROC] = 40;
	kv.st.uncharges[UCT_NPROC] = 37;
	assert_int_equal(uct_model_update(&f->m, recs, n, &kv, 1, 1001.0), 0);
	names_on(f);
	f->c.events = true;
	f->c.scrape_seconds = 0.0042;
	f->c.scrape_errors = 1;
	f->c.snapshot_src = "iter/ucounts";
	f->c.hooks = "tp_btf:ucounts_rlimit_refused,iter/task";
	om = render(f, uct_view_openmetrics);
	assert_non_null(strstr(om, "\nucounttop_row_over_limit{ns=\"1\",level=\"0\",kuid=\"1001\"} 1\n"));
	if (dir)
		write_doc(dir, "openmetrics-1.0.0.txt", om);
	tx = render(f, view_text);
	if (dir)
		write_doc(dir, "text-0.0.4.txt", tx);
	users_on(f, NULL);
	om = render(f, uct_view_openmetrics);
	assert_non_null(strstr(om, "\nucounttop_user_info{"));
	if (dir)
		write_doc(dir, "openmetrics-1.0.0-idle.txt", om);
	tx = render(f, view_text);
	if (dir)
		write_doc(dir, "text-0.0.4-idle.txt", tx);
}

/* ---- fmt ---- */
static void test_fmt_num(void **state)
{
	char b[32];

	assert_string_equal(uct_fmt_num(b, sizeof(b), 0), "0");
	assert_string_equal(uct_fmt_num(b, sizeof(b), 9999), "9999");
	assert_string_equal(uct_fmt_num(b, sizeof(b), 10000), "9.8K");
	assert_string_equal(uct_fmt_num(b, sizeof(b), 819200), "800K");
	assert_string_equal(uct_fmt_num(b, sizeof(b), 8388608), "8.0M");
	assert_string_equal(uct_fmt_num(b, sizeof(b), INF), "inf");
	assert_string_equal(uct_fmt_num(b, sizeof(b), -12), "-12");
	assert_string_equal(uct_fmt_signed(b, sizeof(b), 3), "+3");
	assert_string_equal(uct_fmt_signed(b, sizeof(b), -3), "-3");
	assert_string_equal(uct_fmt_signed(b, sizeof(b), 0), "0");
}

/* uct_fmt_num() by printf's float formatting: the integer version must
 * print the same text for every value */
static void fmt_num_printf(char *buf, size_t len, long long v)
{
	if (uct_is_unlimited(v))
		snprintf(buf, len, "inf");
	else if (v > -10000 && v < 10000)
		snprintf(buf, len, "%lld", v);
	else
		uct_fmt_num_printf(buf, len, v);
}

static void expect_num(long long v)
{
	char got[32], want[32], sb[80], want2[80], sg[40], wantg[40];
	struct uct_sb b = UCT_SB_INIT(sb), g = UCT_SB_INIT(sg);

	uct_fmt_num(got, sizeof(got), v);
	fmt_num_printf(want, sizeof(want), v);
	if (strcmp(got, want))
		fail_msg("uct_fmt_num(%lld) = \"%s\", printf gives \"%s\"", v, got, want);
	/* the builder's version, made and then remembered: the same text */
	uct_sb_num(&b, v);
	uct_sb_char(&b, '|');
	uct_sb_num(&b, v);
	snprintf(want2, sizeof(want2), "%s|%s", want, want);
	if (strcmp(sb, want2))
		fail_msg("uct_sb_num(%lld) twice = \"%s\", want \"%s\"", v, sb, want2);
	uct_sb_signed(&g, v);
	uct_fmt_signed(wantg, sizeof(wantg), v);
	if (strcmp(sg, wantg))
		fail_msg("uct_sb_signed(%lld) = \"%s\", uct_fmt_signed gives \"%s\"", v, sg, wantg);
}

static void test_fmt_num_matches_printf(void **state)
{
	unsigned long long x = 88172645463325252ULL;
	long long v, p;
	int k, i;

	(void)state;
	/* every value up to 3M, both signs: all K cells and the first M ones */
	for (v = 0; v <= 3000000; v++) {
		expect_num(v);
		expect_num(-v);
	}
	/* around each power-of-1024 boundary and the 99.95 / 999.95 edges */
	for (p = 1024, k = 0; k < 5; k++, p *= 1024) {
		/* p / 4 * 19999 / 5 is p * 19999 / 20 without overflowing at
		 * p = 2^50 */
		long long edges[] = { p, 100 * p, 1000 * p, p * 1999 / 20, p / 4 * 19999 / 5 };

		for (i = 0; i < (int)ARRAY_SIZE(edges); i++)
			for (v = edges[i] - 3000; v <= edges[i] + 3000; v++) {
				expect_num(v);
				expect_num(-v);
			}
	}
	/* ties: v * 10 / 1024 exactly .5 (10.25K prints 10.2K, 10.75K 10.8K) */
	for (v = 256; v < 1000000; v += 512)
		expect_num(v);
	/* random magnitudes up to and past 2^53 (xorshift64) */
	for (i = 0; i < 1000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (long long)(x >> (x % 63 + 1));
		expect_num(v);
		expect_num(-v);
	}
	expect_num(LLONG_MAX - 1);
	expect_num(LLONG_MIN + 1);
	expect_num(LLONG_MIN);
}

static void test_fmt_int(void **state)
{
	char b[32];

	(void)state;
	assert_int_equal(uct_fmt_u64(b, 0), 1);
	assert_string_equal(b, "0");
	assert_int_equal(uct_fmt_u64(b, 18446744073709551615ULL), 20);
	assert_string_equal(b, "18446744073709551615");
	{
		/* the digit count and the 32-bit switch: every power of ten
		 * and of two, and its neighbours, as printf writes them */
		unsigned long long edges[64 + 20], p10 = 1;
		size_t ne = 0, i;
		int d;

		for (i = 0; i < 64; i++)
			edges[ne++] = 1ULL << i;
		for (i = 0; i < 20; i++, p10 *= 10)
			edges[ne++] = p10;
		for (i = 0; i < ne; i++) {
			for (d = -1; d <= 1; d++) {
				unsigned long long v = edges[i] + (unsigned long long)(long long)d;
				char want[32];
				int n = snprintf(want, sizeof(want), "%llu", v);

				assert_int_equal(uct_fmt_u64(b, v), n);
				assert_string_equal(b, want);
			}
		}
	}
	{
		/* in place with room for any number, copied and cut without */
		char w[24];
		struct uct_sb s1 = UCT_SB_INIT(w), s2 = { w, 8, 0, 0 };

		uct_sb_str(&s1, "ab");
		uct_sb_u64(&s1, 1234567);
		assert_string_equal(w, "ab1234567");
		uct_sb_u64(&s2, 1234567890);
		assert_string_equal(w, "1234567");
		assert_int_equal(s2.lost, 3);
	}
	assert_int_equal(uct_fmt_i64(b, LLONG_MIN), 20);
	assert_string_equal(b, "-9223372036854775808");
	assert_int_equal(uct_fmt_i64(b, -7), 2);
	assert_string_equal(b, "-7");
}

static void test_type_names(void **state)
{
	assert_int_equal(uct_type_parse("nproc"), UCT_NPROC);
	assert_int_equal(uct_type_parse("SIG"), UCT_SIGPENDING);
	assert_int_equal(uct_type_parse("m"), -1);	/* msgqueue or memlock */
	assert_int_equal(uct_type_parse("mem"), UCT_MEMLOCK);
	assert_int_equal(uct_type_parse(""), -1);
	assert_string_equal(uct_type_name(UCT_MSGQUEUE), "msgqueue");
	assert_string_equal(uct_type_header(UCT_MEMLOCK), "MEMLOCK");
	assert_string_equal(uct_type_unit(UCT_MEMLOCK), "pages");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_checker),
		cmocka_unit_test_setup_teardown(test_json_valid_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_events_and_filter, setup, teardown),
		cmocka_unit_test(test_json_empty),
		cmocka_unit_test_setup_teardown(test_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_fits_80, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_tty_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_deltas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_deny_huge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_wide_cells, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_deep_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_memlock_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_memlock_saturates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memlock_stock_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memlock_pages_in_json_bytes_in_metrics, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_metrics_memlock_saturates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_ns_uids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_unmapped_uid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_kuid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_ns_uids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_kuid_labels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_cardinality, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_row_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_no_empty_labels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_scrape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_documents, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_counters_unsigned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recursion_misses_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_one_word, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_hostname_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_hostile_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_long_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_no_tenant_labels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_openmetrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_fit_80, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_users_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_users_fit_80, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch_is_table_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_users_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_users_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_users_openmetrics, setup, teardown),
		cmocka_unit_test(test_fmt_num),
		cmocka_unit_test(test_fmt_num_matches_printf),
		cmocka_unit_test(test_fmt_int),
		cmocka_unit_test(test_type_names),
	};

	return cmocka_run_group_tests_name("views", tests, NULL, NULL);
}
