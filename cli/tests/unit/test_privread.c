// SPDX-License-Identifier: GPL-2.0
/*
 * test_privread.c - what the helpers read for the live view (privread.c),
 * through real helper processes: a Docker container's name from its
 * config.v2.json under the configured data root or a remapped daemon's
 * uid.gid directory below it, none for an id that is not 64 hex digits
 * (the path stays in the root), a missing file, or a name Docker would
 * not accept; a Kubernetes container's pod from containerd's bundle or
 * CRI-O's; a rootless Podman's container's user:name from its user's
 * containers.json, which only that user may own, and never through a
 * symbolic link.
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
#define ID_REMAP "2222222222222222222222222222222222222222222222222222222222222222"
#define ID_DECOY "3333333333333333333333333333333333333333333333333333333333333333"
#define ID_CD	"4444444444444444444444444444444444444444444444444444444444444444"
#define ID_CRIO	"5555555555555555555555555555555555555555555555555555555555555555"
#define ID_POD	"6666666666666666666666666666666666666666666666666666666666666666"

static char root[] = "/tmp/test_privread.XXXXXX";

/* root/DIR/FILE with json in it, the directories made */
static void put(const char *dir, const char *file, const char *json)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", root, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
}

static void put_config(const char *id, const char *json)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "containers/%s", id);
	put(dir, "config.v2.json", json);
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
	/* a daemon with --userns-remap keeps its state in uid.gid */
	put("100000.100000/containers/" ID_REMAP, "config.v2.json", "{\"Name\":\"/remapped\"}");
	put("x.1/containers/" ID_DECOY, "config.v2.json", "{\"Name\":\"/decoy\"}");
	put("cd/" ID_CD, "config.json",
	    "{\"annotations\":{\"io.kubernetes.cri.container-type\":\"container\","
	    "\"io.kubernetes.cri.sandbox-name\":\"web-1\","
	    "\"io.kubernetes.cri.sandbox-namespace\":\"shop\","
	    "\"io.kubernetes.cri.container-name\":\"nginx\"}}");
	put("crio/" ID_CRIO "/userdata", "config.json",
	    "{\"annotations\":{\"io.kubernetes.cri-o.ContainerType\":\"sandbox\","
	    "\"io.kubernetes.pod.name\":\"db-0\",\"io.kubernetes.pod.namespace\":\"ks\"}}");
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
	/* a remapped daemon's, in uid.gid; another directory is no root */
	assert_int_equal(uct_privread_docker_name(&pr, ID_REMAP, name), 0);
	assert_string_equal(name, "remapped");
	assert_int_equal(uct_privread_docker_name(&pr, ID_DECOY, name), -1);
	/* one helper answered all of them */
	assert_int_equal(pr.helper.started, 1);
	uct_privread_free(&pr);
}

static void test_cri_bundles(void **state)
{
	char cd[300], crio[300], name[UCT_CFILTER_MAX + 1];
	struct uct_privread_cfg cfg;
	struct uct_privread pr;
	struct uct_kube k;

	uct_privread_cfg_init(&cfg);
	snprintf(cd, sizeof(cd), "%s/cd", root);
	snprintf(crio, sizeof(crio), "%s/crio", root);
	cfg.containerd_bundles = cd;
	cfg.crio_containers = crio;
	assert_int_equal(uct_privread_init(&pr, &cfg), 0);
	assert_int_equal(uct_privread_cri(&pr, ID_CD, &k), 0);
	uct_kube_display(&k, name, sizeof(name));
	assert_string_equal(name, "shop/web-1/nginx");
	assert_int_equal(uct_privread_cri(&pr, ID_CRIO, &k), 0);
	uct_kube_display(&k, name, sizeof(name));
	assert_string_equal(name, "ks/db-0");
	assert_int_equal(uct_privread_cri(&pr, ID_WEB, &k), -1);
	assert_string_equal(k.pod, "");
	assert_int_equal(uct_privread_cri(&pr, "../cd/" ID_CD, &k), -1);
	uct_privread_free(&pr);
}

/* containers.json in a home of the test's: root's files, read for uid 0
 * (whose name the host's passwd gives), refused for any other uid; the
 * file behind a symbolic link refused for its owner too */
static void test_podman_name(void **state)
{
	char home[300], link[400], target[400], name[UCT_TENANT_CNAME_MAX + 1];
	struct uct_privread_cfg cfg;
	struct uct_privread pr;

	if (geteuid())
		skip();		/* the files are the test's; their owner must be a
				 * user the host's passwd names: root */
	put("home/.local/share/containers/storage/vfs-containers", "containers.json",
	    "[{\"id\":\"" ID_WEB "\",\"names\":[\"web\"],\"metadata\":\"{}\"},"
	    "{\"id\":\"" ID_POD "\",\"names\":[\"db\",\"db-alias\"]}]");
	uct_privread_cfg_init(&cfg);
	snprintf(home, sizeof(home), "%s/home", root);
	cfg.podman_home = home;
	assert_int_equal(uct_privread_init(&pr, &cfg), 0);
	assert_int_equal(uct_privread_podman_name(&pr, 0, ID_WEB, name), 0);
	assert_string_equal(name, "root:web");
	assert_int_equal(uct_privread_podman_name(&pr, 0, ID_POD, name), 0);
	assert_string_equal(name, "root:db");
	assert_int_equal(uct_privread_podman_name(&pr, 0, ID_CD, name), -1);
	/* uid 1000 does not own it: whatever its home points to */
	assert_int_equal(uct_privread_podman_name(&pr, 1000, ID_WEB, name), -1);
	assert_string_equal(name, "");
	/* overlay's place, a link to the file: not followed */
	snprintf(link, sizeof(link), "%s/.local/share/containers/storage/overlay-containers", home);
	snprintf(target, sizeof(target), "mkdir -p %s && ln -s ../vfs-moved/containers.json "
		 "%s/containers.json && mv %s/.local/share/containers/storage/vfs-containers "
		 "%s/.local/share/containers/storage/vfs-moved", link, link, home, home);
	assert_int_equal(system(target), 0);
	assert_int_equal(uct_privread_podman_name(&pr, 0, ID_WEB, name), -1);
	uct_privread_free(&pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker_name),
		cmocka_unit_test(test_cri_bundles),
		cmocka_unit_test(test_podman_name),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
