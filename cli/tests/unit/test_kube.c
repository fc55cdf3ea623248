// SPDX-License-Identifier: GPL-2.0
/* test_kube.c - a pod's identity from its cgroup path and its bundle's
 * annotations (kube.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "cgroups.h"
#include "kube.h"

#define UID	"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
#define UID_	"0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0"
#define CID	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The pod UID of both cgroup drivers, only below kubepods, only from
 * what root made */
static void test_pod_uid(void **state)
{
	static const struct { const char *path, *want; } cases[] = {
		{ "/kubepods/burstable/pod" UID "/" CID, UID },
		{ "/kubepods/pod" UID "/" CID, UID },
		{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
		  ".slice/cri-containerd-" CID ".scope", UID },
		{ "/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" CID ".scope", UID },
		{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/"
		  "kubelet-kubepods-burstable-pod" UID_ ".slice/cri-containerd-" CID ".scope", UID },
		{ "/system.slice/pod" UID "/" CID, NULL },	/* not below kubepods */
		{ "/kubepods/burstable/pod" UID_ "/" CID, NULL },	/* '_' in cgroupfs' */
		{ "/kubepods.slice/kubepods-pod" UID ".slice/x", NULL },	/* '-' in systemd's */
		{ "/kubepods/pod0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0/" CID, NULL },
		{ "/kubepods/pod" UID "x/" CID, NULL },
		{ "/kubepods/pod1/" CID, NULL },
		{ "", NULL },
	};
	char uid[UCT_POD_UID_LEN + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = uct_pod_uid(cases[i].path, strlen(cases[i].path), uid);

		if (got != !!cases[i].want || (got && strcmp(uid, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "a uid" : "none", uid);
		if (!got)
			assert_string_equal(uid, "");
	}
	/* a tenant's directory (past the trusted bytes) names no pod */
	assert_false(uct_pod_uid("/kubepods/pod" UID "/x", strlen("/kubepods/"), uid));
	assert_false(uct_pod_uid(NULL, 0, uid));
	/* the runtimes' own prefixes */
	assert_true(uct_container_is_cri("/x/cri-containerd-" CID ".scope", CID));
	assert_true(uct_container_is_cri("/x/crio-" CID ".scope", CID));
	assert_false(uct_container_is_cri("/x/crio-conmon-" CID ".scope", CID));
	assert_false(uct_container_is_cri("/x/docker-" CID ".scope", CID));
	assert_false(uct_container_is_cri("/kubepods/pod" UID "/" CID, CID));
}

#define CONTAINERD(type, extra) \
	"{\"ociVersion\":\"1.0.2\",\"process\":{\"env\":[\"X=1\"]},\"annotations\":{" \
	"\"io.kubernetes.cri.container-type\":\"" type "\"," \
	"\"io.kubernetes.cri.sandbox-id\":\"" CID "\"," \
	"\"io.kubernetes.cri.sandbox-name\":\"web-7d4b9c-x2x\"," \
	"\"io.kubernetes.cri.sandbox-namespace\":\"shop\"," \
	"\"io.kubernetes.cri.sandbox-uid\":\"" UID "\"" extra "}}"
#define CRIO(type, ctr) \
	"{\n  \"annotations\": {\n    \"io.kubernetes.cri-o.ContainerType\": \"" type "\",\n" \
	"    \"io.kubernetes.pod.name\": \"db-0\",\n" \
	"    \"io.kubernetes.pod.namespace\": \"kube-system\",\n" \
	"    \"io.kubernetes.pod.uid\": \"" UID "\",\n" \
	"    \"io.kubernetes.container.name\": \"" ctr "\"\n  }\n}\n"

/* containerd's CRI plugin's annotations and CRI-O's; the sandbox is the
 * pod; only names Kubernetes accepts; only the top-level annotations */
static void test_cri_identity(void **state)
{
	static const struct { const char *json, *want, *uid; } cases[] = {
		{ CONTAINERD("container", ",\"io.kubernetes.cri.container-name\":\"nginx\""),
		  "shop/web-7d4b9c-x2x/nginx", UID },
		{ CONTAINERD("sandbox", ""), "shop/web-7d4b9c-x2x", UID },
		{ CONTAINERD("container", ""), NULL, NULL },	/* a container with no name */
		{ CONTAINERD("container", ",\"io.kubernetes.cri.container-name\":\"Nginx\""),
		  NULL, NULL },
		{ CONTAINERD("container", ",\"io.kubernetes.cri.container-name\":\"a/b\""), NULL,
		  NULL },
		{ CRIO("container", "postgres"), "kube-system/db-0/postgres", UID },
		{ CRIO("sandbox", "POD"), "kube-system/db-0", UID },
		{ CRIO("container", "-x"), NULL, NULL },
		/* annotations a tenant wrote into its environment are not the bundle's */
		{ "{\"process\":{\"env\":[\"A={\\\"annotations\\\":{\\\"io.kubernetes.pod.name\\\":"
		  "\\\"x\\\"}}\"]}}", NULL, NULL },
		{ "{\"process\":{\"annotations\":{\"io.kubernetes.pod.name\":\"x\","
		  "\"io.kubernetes.pod.namespace\":\"y\",\"io.kubernetes.container.name\":\"z\"}}}",
		  NULL, NULL },
		{ "{\"annotations\":{\"io.kubernetes.pod.name\":\"x\","
		  "\"io.kubernetes.pod.namespace\":\"y\",\"io.kubernetes.container.name\":\"z\"}}",
		  "y/x/z", "" },
		/* a UID with a bad digit is none, not its first digits */
		{ "{\"annotations\":{\"io.kubernetes.pod.name\":\"x\",\"io.kubernetes.pod.uid\":"
		  "\"0f1e2d3c-4b5a-6978-8796-a5j4c3d2e1f0\",\"io.kubernetes.pod.namespace\":\"y\","
		  "\"io.kubernetes.container.name\":\"z\"}}", "y/x/z", "" },
		{ "{\"annotations\":{}}", NULL, NULL },
		{ "{\"annotations\":\"x\"}", NULL, NULL },
	};
	char name[UCT_CFILTER_MAX + 1];
	struct uct_kube k;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = uct_cri_identity(cases[i].json, strlen(cases[i].json), &k);

		name[0] = 0;
		if (got)
			uct_kube_display(&k, name, sizeof(name));
		if (got != !!cases[i].want || (got && strcmp(name, cases[i].want)))
			fail_msg("case %zu: got %s '%s'", i, got ? "a pod" : "none", name);
		if (got)
			assert_string_equal(k.pod_uid, cases[i].uid);
		else
			assert_string_equal(k.pod, "");
	}
}

/* --container's NAMESPACE/POD[/CONTAINER] */
static void test_display_ok(void **state)
{
	static const struct { const char *s; bool ok; } cases[] = {
		{ "shop/web-1", true }, { "shop/web-1.a/nginx", true }, { "a/b/c", true },
		{ "shop", false }, { "/web", false }, { "shop/", false }, { "shop/web/", false },
		{ "Shop/web", false }, { "shop/web/a.b", false }, { "shop/web/c/d", false },
		{ "shop/-web", false }, { "sh_op/web", false },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (uct_kube_display_ok(cases[i].s, strlen(cases[i].s)) != cases[i].ok)
			fail_msg("'%s': want %s", cases[i].s, cases[i].ok ? "ok" : "refused");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pod_uid),
		cmocka_unit_test(test_cri_identity),
		cmocka_unit_test(test_display_ok),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
