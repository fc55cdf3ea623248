// SPDX-License-Identifier: GPL-2.0
/*
 * test_names.c - container ids from cgroup paths, the cgroup cache, and
 * reading a process's cgroup and the cgroup2 mount from /proc text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "cgroups.h"
#include "proc_limits.h"

#define ID1 "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708"
#define ID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The id a path yields, "" for none */
static const char *cid(const char *path)
{
	static char id[UCT_CID_LEN + 1];
	bool has = uct_container_id(path, path ? strlen(path) : 0, id);

	assert_int_equal(has, id[0] != 0);
	return id;
}

static void test_five_forms(void **state)
{
	assert_string_equal(cid("/system.slice/docker-" ID1 ".scope"), ID1);
	assert_string_equal(cid("/machine.slice/libpod-" ID1 ".scope"), ID1);
	assert_string_equal(cid("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-"
				ID1 ".scope"), ID1);
	assert_string_equal(cid("/kubepods.slice/kubepods-besteffort.slice/"
				"kubepods-besteffort-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice/"
				"cri-containerd-" ID1 ".scope"), ID1);
	assert_string_equal(cid("/kubepods.slice/kubepods-burstable.slice/crio-" ID1 ".scope"), ID1);
	assert_string_equal(cid("/kubepods/besteffort/pod1234/crio-" ID1), ID1);
	assert_string_equal(cid("/docker/" ID1), ID1);
	/* kubernetes' cgroupfs driver: a bare id under the pod */
	assert_string_equal(cid("/kubepods/burstable/pod0a1b2c3d-4e5f/" ID1), ID1);
	/* podman inside the container's cgroup namespace, and a process in a
	 * sub-cgroup of the container */
	assert_string_equal(cid("/machine.slice/libpod-" ID1 ".scope/container"), ID1);
	assert_string_equal(cid("/system.slice/docker-" ID1 ".scope/init.scope"), ID1);
}

static void test_outermost_wins(void **state)
{
	/* docker in docker: the outer container, the one the host's engine
	 * made; a rootful container's root can make the inner directory
	 * (root-owned) named after any other container */
	assert_string_equal(cid("/docker/" ID1 "/docker/" ID2), ID1);
	assert_string_equal(cid("/system.slice/docker-" ID1 ".scope/libpod-" ID2 ".scope/x"), ID1);
	assert_string_equal(cid("/system.slice/docker-" ID1 ".scope/docker-" ID2 ".scope"), ID1);
	/* a deeper id counts when nothing above it is one */
	assert_string_equal(cid("/user.slice/x/docker-" ID2 ".scope"), ID2);
}

static void test_not_ids(void **state)
{
	assert_string_equal(cid("/"), "");
	assert_string_equal(cid(""), "");
	assert_string_equal(cid("/user.slice/user-1000.slice/session-2.scope"), "");
	assert_string_equal(cid("/system.slice/docker.service"), "");
	/* conmon, podman's and cri-o's monitor, is not the container */
	assert_string_equal(cid("/machine.slice/libpod-conmon-" ID1 ".scope"), "");
	assert_string_equal(cid("/kubepods.slice/crio-conmon-" ID1 ".scope"), "");
	/* one digit short, one too many, upper case, a non-hex letter */
	assert_string_equal(cid("/docker/"
				"3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"), "");
	assert_string_equal(cid("/docker/" ID1 "0"), "");
	assert_string_equal(cid("/docker/"
				"3F2A1B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F708"), "");
	assert_string_equal(cid("/system.slice/docker-g"
				"f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708"
				".scope"), "");
	/* a prefix the runtimes do not use, a suffix other than .scope */
	assert_string_equal(cid("/lxc-" ID1), "");
	assert_string_equal(cid("/docker-" ID1 ".service"), "");
	assert_string_equal(cid("/docker-" ID1 ".scope.scope"), "");
	/* an id split across components, no component at all */
	assert_string_equal(cid("/docker-3f2a1b4c5d6e7f8091a2b3c4d5e6f708/"
				"192a3b4c5d6e7f8091a2b3c4d5e6f708"), "");
	assert_string_equal(cid("///"), "");
	assert_false(uct_container_id(NULL, 0, (char[UCT_CID_LEN + 1]){ 0 }));
}

/* The id a path yields when only its first trusted bytes were made by
 * root */
static const char *cid_trusted(const char *path, size_t trusted)
{
	static char id[UCT_CID_LEN + 1];
	bool has = uct_container_id(path, trusted, id);

	assert_int_equal(has, id[0] != 0);
	return id;
}

/* A tenant with a delegated subtree (user@1000.service, owned by uid
 * 1000) makes docker-<a victim's id>.scope in it: not that container */
static void test_untrusted_components(void **state)
{
	static const char deleg[] = "/user.slice/user-1000.slice/user@1000.service";
	static const char spoof[] = "/user.slice/user-1000.slice/user@1000.service/docker-" ID1
				    ".scope";
	static const char inner[] = "/system.slice/docker-" ID1 ".scope/docker-" ID2 ".scope";

	/* trusted up to user-1000.slice (root's) */
	assert_string_equal(cid_trusted(spoof, strlen("/user.slice/user-1000.slice")), "");
	assert_string_equal(cid_trusted(spoof, strlen(deleg)), "");
	/* one byte short of the component is not the component */
	assert_string_equal(cid_trusted(spoof, strlen(spoof) - 1), "");
	assert_string_equal(cid_trusted(spoof, strlen(spoof)), ID1);
	/* the outer container's own, the inner one made by its root (trusted,
	 * root-owned): the outer one either way */
	assert_string_equal(cid_trusted(inner, strlen("/system.slice/docker-" ID1 ".scope")), ID1);
	assert_string_equal(cid_trusted(inner, strlen(inner)), ID1);
	assert_string_equal(cid_trusted(inner, 0), "");
	/* trusted past the end (a lookup's bound, not the path's) */
	assert_string_equal(cid_trusted(inner, 4096), ID1);
}

/* Very long input: whole hex runs, long components, many slashes */
static void test_hostile(void **state)
{
	size_t n = 1 << 20, i;
	char *p = malloc(n + 1);

	assert_non_null(p);
	memset(p, 'a', n);
	p[n] = 0;
	assert_string_equal(cid(p), "");
	for (i = 0; i < n; i++)
		p[i] = i % 65 == 64 ? '/' : 'f';
	/* every component is 64 hex digits: the last whole one wins */
	assert_string_equal(cid(p), "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
	memset(p, '/', n);
	assert_string_equal(cid(p), "");
	/* an id at the very end, after a megabyte of junk */
	memset(p, 'x', n);
	memcpy(p + n - 72, "/docker/" ID1, 72);
	assert_string_equal(cid(p), ID1);
	free(p);
}

static void test_cache(void **state)
{
	struct uct_cache c = { 0 };
	struct uct_cgname *e;
	const char *path, *id;
	__u64 k;

	assert_null(uct_cgcache_get(&c, 0, 1));	/* no cgroup */
	e = uct_cgcache_get(&c, 42, 1);
	assert_non_null(e);
	assert_null(e->path);
	assert_int_equal(c.cap, 64);		/* the first table */
	assert_true(uct_cgname_set(e, "/system.slice/docker-" ID1 ".scope", 99, UCT_NO_UID));
	path = e->path;
	id = e->cid;
	assert_string_equal(id, ID1);
	/* a thousand more: the table grows, the strings stay where they are */
	for (k = 1000; k < 2000; k++) {
		e = uct_cgcache_get(&c, k, 1);
		assert_non_null(e);
		assert_true(uct_cgname_set(e, "/user.slice", 11, UCT_NO_UID));
		assert_null(e->cid);
	}
	e = uct_cgcache_get(&c, 42, 2);
	assert_ptr_equal(e->path, path);
	assert_ptr_equal(e->cid, id);
	assert_int_equal(c.n, 1001);
	/* at most half full: doubled as the 513th came */
	assert_int_equal(c.cap, 2048);
	/* generation 2 used 42 only: the rest go, the table keeps its size */
	uct_cgcache_sweep(&c, 2);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.cap, 2048);
	e = uct_cgcache_get(&c, 42, 3);
	assert_string_equal(e->path, "/system.slice/docker-" ID1 ".scope");
	e = uct_cgcache_get(&c, 1500, 3);
	assert_null(e->path);			/* forgotten: looked up again */
	uct_cgcache_free(&c);
	assert_int_equal(c.n, 0);
}

/* A fake /proc with one process's cgroup file */
static char proc_dir[64];

static void write_cgroup(int pid, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", proc_dir, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/cgroup", proc_dir, pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read_task_cgroup(void **state)
{
	char path[256];

	strcpy(proc_dir, "/tmp/uct-test-proc-XXXXXX");
	assert_non_null(mkdtemp(proc_dir));
	write_cgroup(7, "0::/system.slice/docker-" ID1 ".scope\n");
	assert_int_equal(uct_read_task_cgroup(proc_dir, 7, path, sizeof(path)), 0);
	assert_string_equal(path, "/system.slice/docker-" ID1 ".scope");
	/* v1 controllers first, the unified line last, no newline at the end */
	write_cgroup(8, "12:pids:/x\n1:name=systemd:/y\n0::/\n");
	assert_int_equal(uct_read_task_cgroup(proc_dir, 8, path, sizeof(path)), 0);
	assert_string_equal(path, "/");
	write_cgroup(9, "0::/a/b");
	assert_int_equal(uct_read_task_cgroup(proc_dir, 9, path, sizeof(path)), 0);
	assert_string_equal(path, "/a/b");
	/* v1 only; no such process; a path longer than the buffer */
	write_cgroup(10, "3:memory:/z\n");
	assert_int_equal(uct_read_task_cgroup(proc_dir, 10, path, sizeof(path)), -1);
	assert_int_equal(uct_read_task_cgroup(proc_dir, 11, path, sizeof(path)), -1);
	assert_int_equal(uct_read_task_cgroup(proc_dir, 9, path, 4), -1);
	assert_int_equal(uct_read_task_cgroup(proc_dir, 9, path, 5), 0);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -r %s", proc_dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* A made-up cgroup tree: root's runtime cgroups, and a subtree delegated
 * to uid 1000 with a spoofed container cgroup in it (made by root here,
 * which only makes the case harder: below a tenant's directory, even a
 * root-owned one does not count) */
static void test_cgroup_owned_prefix(void **state)
{
	static const char *const dirs[] = {
		"system.slice", "system.slice/docker-" ID1 ".scope",
		"system.slice/docker-" ID1 ".scope/x", "user.slice",
		"user.slice/user@1000.service",
		"user.slice/user@1000.service/docker-" ID1 ".scope",
	};
	char mnt[64], p[256];
	__u32 tenant;
	size_t i;

	if (geteuid())
		skip();		/* chown() */
	strcpy(mnt, "/tmp/uct-cg.XXXXXX");
	assert_non_null(mkdtemp(mnt));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", mnt, dirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/user.slice/user@1000.service", mnt);
	assert_int_equal(chown(p, 1000, 1000), 0);
	assert_int_equal(uct_cgroup_owned_prefix(mnt, "/system.slice/docker-" ID1 ".scope/x", 0,
						 &tenant),
			 strlen("/system.slice/docker-" ID1 ".scope/x"));
	assert_int_equal(tenant, UCT_NO_UID);
	/* the tenant: the owner of the first directory past root's */
	assert_int_equal(uct_cgroup_owned_prefix(mnt, "/user.slice/user@1000.service/docker-" ID1
						 ".scope", 0, &tenant), strlen("/user.slice"));
	assert_int_equal(tenant, 1000);
	/* gone meanwhile: up to what is there, and no tenant */
	assert_int_equal(uct_cgroup_owned_prefix(mnt, "/system.slice/gone/docker-" ID1 ".scope",
						 0, &tenant), strlen("/system.slice"));
	assert_int_equal(tenant, UCT_NO_UID);
	assert_int_equal(uct_cgroup_owned_prefix(mnt, "/", 0, NULL), 0);
	/* the mount's own root owned by someone else: nothing */
	assert_int_equal(chown(mnt, 1000, 1000), 0);
	assert_int_equal(uct_cgroup_owned_prefix(mnt, "/system.slice", 0, &tenant), 0);
	assert_int_equal(tenant, UCT_NO_UID);
	snprintf(p, sizeof(p), "rm -rf %s", mnt);
	assert_int_equal(system(p), 0);
}

static void test_cgroup2_mount(void **state)
{
	char dir[64];

	assert_int_equal(uct_parse_cgroup2_mount(
		"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - cgroup2 cgroup2 rw\n",
		dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup");
	/* a bind mount of a sub-cgroup is not the whole hierarchy; then the
	 * whole one elsewhere; cgroup v1 is not it */
	assert_int_equal(uct_parse_cgroup2_mount(
		"40 1 0:26 /system.slice /mnt/x rw - cgroup2 none rw\n"
		"41 1 0:30 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
		"42 1 0:26 / /cg rw - cgroup2 none rw\n", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/cg");
	/* mounted on / itself: paths are appended as they are */
	assert_int_equal(uct_parse_cgroup2_mount("1 0 0:26 / / rw - cgroup2 none rw\n", dir,
						 sizeof(dir)), 0);
	assert_string_equal(dir, "");
	/* none, or only with an escaped name */
	assert_int_equal(uct_parse_cgroup2_mount("22 1 0:21 / /proc rw - proc proc rw\n", dir,
						 sizeof(dir)), -1);
	assert_int_equal(uct_parse_cgroup2_mount("1 0 0:26 / /my\\040cg rw - cgroup2 none rw\n",
						 dir, sizeof(dir)), -1);
	assert_int_equal(uct_parse_cgroup2_mount("", dir, sizeof(dir)), -1);
	assert_int_equal(uct_parse_cgroup2_mount("garbage - \n - cgroup2\n", dir, sizeof(dir)), -1);
}

/* Docker's names: which paths are Docker's, and the name in its
 * config.v2.json (the top-level "Name", which starts with '/'), taken
 * only as Docker accepts one */
static void test_docker_names(void **state)
{
	static const char id[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	char path[256], name[UCT_CNAME_MAX + 1], big[200];
	static const struct { const char *json, *want; } cases[] = {
		{ "{\"ID\":\"x\",\"Name\":\"/web\",\"Driver\":\"vfs\"}", "web" },
		{ "{\"MountPoints\":{},\"Name\":\"/db-1.a_b\"}", "db-1.a_b" },
		/* the first top-level "Name" only */
		{ "{\"Name\":\"vol\",\"x\":1,\"Name\":\"/api\"}", NULL },
		/* deeper "Name"s: an argument, an image's label, a volume's */
		{ "{\"Args\":[\"\\\"Name\\\":\\\"/evil\"],\"Name\":\"/web\"}", "web" },
		{ "{\"Config\":{\"Labels\":{\"Name\":\"/evil\"}},\"Name\":\"/web\"}", "web" },
		{ "{\"Config\":{\"Labels\":{\"Name\":\"/evil\"}}}", NULL },
		{ "{\"MountPoints\":{\"/d\":{\"Name\":\"/vol\"}},\"Name\":\"/db\"}", "db" },
		{ "{\"Name\":\"/\"}", NULL },			/* empty */
		{ "{\"Name\":\"/-x\"}", NULL },		/* a bad first byte */
		{ "{\"Name\":\"/a b\"}", NULL },		/* a space */
		{ "{\"Name\":\"/a\\u001b\"}", NULL },	/* an escape */
		{ "{\"Name\":\"/web", NULL },		/* cut short */
		{ "{\"name\":\"/web\"}", NULL },		/* not the member */
		{ "", NULL },
	};
	size_t i;

	snprintf(path, sizeof(path), "/docker/%s", id);
	assert_true(uct_container_is_docker(path, id));
	snprintf(path, sizeof(path), "/system.slice/docker-%s.scope", id);
	assert_true(uct_container_is_docker(path, id));
	snprintf(path, sizeof(path), "/machine.slice/libpod-%s.scope", id);
	assert_false(uct_container_is_docker(path, id));
	snprintf(path, sizeof(path), "/kubepods/besteffort/pod1/%s", id);
	assert_false(uct_container_is_docker(path, id));
	snprintf(path, sizeof(path), "/notdocker/%s", id);
	assert_false(uct_container_is_docker(path, id));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = uct_docker_name(cases[i].json, strlen(cases[i].json), name);

		if (got != !!cases[i].want || (got && strcmp(name, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "a name" : "none", name);
		if (!got)
			assert_string_equal(name, "");
	}
	/* the longest name kept, and one byte more */
	memset(big, 'a', sizeof(big));
	memcpy(big, "{\"Name\":\"/", 10);
	memcpy(big + 10 + UCT_CNAME_MAX, "\"}", 3);
	assert_true(uct_docker_name(big, strlen(big), name));
	assert_int_equal(strlen(name), UCT_CNAME_MAX);
	memset(big, 'a', sizeof(big));
	memcpy(big, "{\"Name\":\"/", 10);
	memcpy(big + 10 + UCT_CNAME_MAX + 1, "\"}", 3);
	assert_false(uct_docker_name(big, strlen(big), name));
	/* the length given bounds the read: no NUL needed */
	assert_false(uct_docker_name("{\"Name\":\"/web\"}", 12, name));
}

/* A rootless Podman's claim: libpod-<id> past the trusted bytes only,
 * the first such; conmon's cgroup and other engines' prefixes are none */
static void test_podman_claims(void **state)
{
	static const char deleg[] = "/user.slice/user-1000.slice/user@1000.service";
	static const struct { const char *path, *want; } cases[] = {
		{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID1 ".scope",
		  ID1 },
		{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID1
		  ".scope/container", ID1 },
		{ "/user.slice/user-1000.slice/user@1000.service/libpod-" ID1 "/libpod-" ID2, ID1 },
		{ "/user.slice/user-1000.slice/user@1000.service/libpod-conmon-" ID1 ".scope",
		  NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/docker-" ID1 ".scope", NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/" ID1, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/libpod-" ID1 "0", NULL },
		{ "/user.slice/user-1000.slice/user@1000.service", NULL },
		/* root made it: an id of its own (uct_container_id()), no claim */
		{ "/user.slice/libpod-" ID1, NULL },
	};
	char id[UCT_CID_LEN + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = uct_podman_claim(cases[i].path, strlen(deleg), id);

		if (got != !!cases[i].want || (got && strcmp(id, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "a claim" : "none", id);
	}
	assert_false(uct_podman_claim(NULL, 0, id));
}

/* A rootless Podman's name: the first of "names" of the object whose
 * "id" is the container's, nothing deeper, nothing Podman would refuse;
 * and the user:name it is shown as */
static void test_podman_names(void **state)
{
	static const struct { const char *json, *want; } cases[] = {
		{ "[{\"id\":\"" ID1 "\",\"names\":[\"web\"],\"image\":\"x\"}]", "web" },
		{ "[{\"id\":\"" ID2 "\",\"names\":[\"db\"]},{\"names\":[\"api\",\"alias\"],"
		  "\"id\":\"" ID1 "\"}]", "api" },
		/* the id in metadata, or another's name, is not it */
		{ "[{\"id\":\"" ID2 "\",\"metadata\":\"{\\\"id\\\":\\\"" ID1 "\\\"}\","
		  "\"names\":[\"evil\"]}]", NULL },
		{ "[{\"x\":{\"id\":\"" ID1 "\"},\"names\":[\"evil\"]}]", NULL },
		{ "[{\"id\":\"" ID1 "\",\"names\":[]}]", NULL },
		{ "[{\"id\":\"" ID1 "\",\"names\":[\"a b\"]}]", NULL },
		{ "[{\"id\":\"" ID1 "\",\"names\":\"web\"}]", NULL },
		{ "{\"id\":\"" ID1 "\",\"names\":[\"web\"]}", NULL },
		{ "[{\"id\":\"" ID1 "\",\"names\":[\"web\"]}", "web" },	/* cut after */
		{ "", NULL },
	};
	char name[UCT_CNAME_MAX + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = uct_podman_name(cases[i].json, strlen(cases[i].json), ID1, name);

		if (got != !!cases[i].want || (got && strcmp(name, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "a name" : "none", name);
		if (!got)
			assert_string_equal(name, "");
	}
	assert_true(uct_tenant_cname_ok("alice:web", 9));
	assert_true(uct_tenant_cname_ok("svc_ci-2.x:db.1", 15));
	assert_false(uct_tenant_cname_ok("alice:web", 6));	/* the length bounds it */
	assert_false(uct_tenant_cname_ok(":web", 4));
	assert_false(uct_tenant_cname_ok("alice:", 6));
	assert_false(uct_tenant_cname_ok("-x:web", 6));
	assert_false(uct_tenant_cname_ok("a/b:web", 7));
	assert_false(uct_tenant_cname_ok("alice:a:b", 9));
	assert_false(uct_tenant_cname_ok("web", 3));
	assert_false(uct_tenant_cname_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:web", 37));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_five_forms),
		cmocka_unit_test(test_outermost_wins),
		cmocka_unit_test(test_not_ids),
		cmocka_unit_test(test_untrusted_components),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_read_task_cgroup),
		cmocka_unit_test(test_cgroup_owned_prefix),
		cmocka_unit_test(test_cgroup2_mount),
		cmocka_unit_test(test_docker_names),
		cmocka_unit_test(test_podman_claims),
		cmocka_unit_test(test_podman_names),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
