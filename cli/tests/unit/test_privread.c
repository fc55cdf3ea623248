// SPDX-License-Identifier: GPL-2.0
/*
 * test_privread.c - what the helpers read for the live view (privread.c),
 * through real helper processes: a Docker container's name from its
 * config.v2.json under the configured data root, none for an id that is
 * not 64 hex digits (the path stays in the root), a missing file, or a
 * name Docker would not accept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "privread.h"

#define ID_WEB	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_BAD	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static char root[] = "/tmp/test_privread.XXXXXX";

static void put_config(const char *id, const char *json)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/containers/%s", root, id);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/containers/%s/config.v2.json", root, id);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[256];

	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/containers", root);
	mkdir(path, 0700);
	put_config(ID_WEB, "{\"ID\":\"" ID_WEB "\",\"Name\":\"/web\",\"Driver\":\"vfs\"}");
	put_config(ID_BAD, "{\"Name\":\"/bad name\"}");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void test_docker_name(void **state)
{
	struct uct_privread_cfg cfg;
	struct uct_privread pr;
	char name[UCT_CNAME_MAX + 1];

	uct_privread_cfg_init(&cfg);
	cfg.docker_root = root;
	assert_int_equal(uct_privread_init(&pr, &cfg), 0);
	assert_int_equal(uct_privread_docker_name(&pr, ID_WEB, name), 0);
	assert_string_equal(name, "web");
	/* Docker would not name it so */
	assert_int_equal(uct_privread_docker_name(&pr, ID_BAD, name), -1);
	assert_string_equal(name, "");
	/* no such container */
	assert_int_equal(uct_privread_docker_name(&pr, "1111111111111111111111111111111111111111111111111111111111111111", name), -1);
	/* not an id: the helper reads nothing outside the root */
	assert_int_equal(uct_privread_docker_name(&pr, "../../../../etc/passwd", name), -1);
	assert_int_equal(uct_privread_docker_name(&pr, "0123", name), -1);
	/* one helper answered all of them */
	assert_int_equal(pr.helper.started, 1);
	uct_privread_free(&pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker_name),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
