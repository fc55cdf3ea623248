// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_engine_json.c - libFuzzer target: what ucounttop reads of an
 * engine's files about a container (Docker's config.v2.json, an OCI
 * bundle's config.json, a rootless Podman's containers.json) and of a
 * cgroup path.
 *
 * Input: any bytes, read as each of those; as a path, up to the first
 * NUL, with every byte trusted.
 *
 * Oracle, besides the sanitizers: a Docker name found is one Docker
 * accepts; a pod found has a namespace and a name Kubernetes accepts, a
 * container name or none (the sandbox), a UID of 36 bytes or none, and
 * its display is what --container takes; a pod UID found from a path is
 * 8-4-4-4-12 lowercase hex; a Podman name found is one Podman accepts;
 * a rootless claim is 64 lowercase hex digits past the trusted bytes;
 * each answer is the same a second time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroups.h"
#include "kube.h"

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_engine_json: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	abort(); } } while (0)

static void check_uid(const char *u)
{
	size_t i;

	CHECK(strlen(u) == UCT_POD_UID_LEN);
	for (i = 0; i < UCT_POD_UID_LEN; i++)
		CHECK(i == 8 || i == 13 || i == 18 || i == 23 ? u[i] == '-' :
		      strchr("0123456789abcdef", u[i]) && u[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[UCT_CNAME_MAX + 1], again[UCT_CNAME_MAX + 1], shown[UCT_CFILTER_MAX + 1];
	char uid[UCT_POD_UID_LEN + 1], cid[UCT_CID_LEN + 1];
	struct uct_kube k, k2;
	size_t i, trusted;
	char *copy = malloc(size ? size : 1);
	char *path;

	/* an exact-size copy: ASan sees a read one byte past the input */
	CHECK(copy);
	memcpy(copy, data, size);
	if (uct_docker_name(copy, size, name)) {
		CHECK(uct_container_name_ok(name, strlen(name)));
		CHECK(uct_docker_name(copy, size, again) && !strcmp(name, again));
	} else {
		CHECK(!name[0]);
	}
	if (uct_cri_identity(copy, size, &k)) {
		CHECK(k.ns[0] && k.pod[0]);
		CHECK(!k.pod_uid[0] || strlen(k.pod_uid) == UCT_POD_UID_LEN);
		if (k.pod_uid[0])
			check_uid(k.pod_uid);
		uct_kube_display(&k, shown, sizeof(shown));
		CHECK(uct_kube_display_ok(shown, strlen(shown)));
		CHECK(uct_cri_identity(copy, size, &k2) && !memcmp(&k, &k2, sizeof(k)));
	} else {
		CHECK(!k.ns[0] && !k.pod[0]);
	}
	/* the id an object of the array must have: the low nibbles of the
	 * input's first 64 bytes (64 blanks: 64 zeros), so inputs can hold it */
	for (i = 0; i < UCT_CID_LEN; i++)
		cid[i] = "0123456789abcdef"[(i < size ? data[i] : 0) & 15];
	cid[UCT_CID_LEN] = 0;
	if (uct_podman_name(copy, size, cid, name)) {
		CHECK(uct_container_name_ok(name, strlen(name)));
		CHECK(uct_podman_name(copy, size, cid, again) && !strcmp(name, again));
	} else {
		CHECK(!name[0]);
	}
	free(copy);
	path = strndup((const char *)data, size);
	CHECK(path);
	if (uct_pod_uid(path, strlen(path), uid))
		check_uid(uid);
	else
		CHECK(!uid[0]);
	trusted = size ? data[0] % (strlen(path) + 1) : 0;
	if (uct_podman_claim(path, trusted, cid)) {
		CHECK(strlen(cid) == UCT_CID_LEN && strspn(cid, "0123456789abcdef") == UCT_CID_LEN);
		CHECK(strstr(path + trusted, cid));
	} else {
		CHECK(!cid[0]);
	}
	free(path);
	return 0;
}
