// SPDX-License-Identifier: GPL-2.0
/* kube.c - a pod's identity from its cgroup path and its bundle (kube.h). */
#include <stdio.h>
#include <string.h>
#include "jsonscan.h"
#include "kube.h"

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* A DNS label (dots false) or subdomain (dots true) of at most max
 * bytes: lowercase letters, digits and '-' ('.' too), alphanumeric at
 * both ends */
static bool dns_name_ok(const char *s, size_t n, size_t max, bool dots)
{
	size_t i;

	if (!n || n > max || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (i = 0; i < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-' && !(dots && s[i] == '.'))
			return false;
	return true;
}

/* 8-4-4-4-12 hex digits, the separators sep, as out with dashes; out
 * untouched when they are not */
static bool uid_from(const char *s, size_t n, char sep, char out[UCT_POD_UID_LEN + 1])
{
	char uid[UCT_POD_UID_LEN + 1];
	size_t i;

	if (n != UCT_POD_UID_LEN)
		return false;
	for (i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != sep : !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
		uid[i] = dash ? '-' : s[i];
	}
	uid[n] = 0;
	memcpy(out, uid, sizeof(uid));
	return true;
}

static bool starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && !memcmp(s, p, k);
}

/* The pod UID in one component (n bytes), below_kubepods: whether a
 * component above it starts with kubepods */
static bool component_uid(const char *s, size_t n, bool below_kubepods,
			  char out[UCT_POD_UID_LEN + 1])
{
	static const char slice[] = ".slice";
	size_t k = sizeof(slice) - 1;

	/* cgroupfs: pod<UID> */
	if (below_kubepods && n == 3 + UCT_POD_UID_LEN && starts(s, n, "pod"))
		return uid_from(s + 3, UCT_POD_UID_LEN, '-', out);
	/* systemd: kubepods[-qos]-pod<UID_>.slice */
	if (n > k + 4 + UCT_POD_UID_LEN && !memcmp(s + n - k, slice, k) &&
	    (starts(s, n, "kubepods-") || starts(s, n, "kubelet-kubepods-")) &&
	    !memcmp(s + n - k - UCT_POD_UID_LEN - 4, "-pod", 4))
		return uid_from(s + n - k - UCT_POD_UID_LEN, UCT_POD_UID_LEN, '_', out);
	return false;
}

bool uct_pod_uid(const char *path, size_t trusted, char out[UCT_POD_UID_LEN + 1])
{
	const char *s = path, *end;
	bool below = false;

	out[0] = 0;
	if (!path)
		return false;
	for (; *s; s = *end ? end + 1 : end) {
		for (end = s; *end && *end != '/'; end++)
			;
		if ((size_t)(end - path) > trusted)
			break;
		if (component_uid(s, (size_t)(end - s), below, out))
			return true;
		below = below || starts(s, (size_t)(end - s), "kubepods") ||
			starts(s, (size_t)(end - s), "kubelet-kubepods");
	}
	out[0] = 0;
	return false;
}

/* The annotations each runtime writes, in struct uct_kube's order */
struct cri_keys {
	const char *ns, *pod, *uid, *container, *type;
};

static const struct cri_keys containerd_keys = {
	"io.kubernetes.cri.sandbox-namespace", "io.kubernetes.cri.sandbox-name",
	"io.kubernetes.cri.sandbox-uid", "io.kubernetes.cri.container-name",
	"io.kubernetes.cri.container-type",
};

static const struct cri_keys crio_keys = {
	"io.kubernetes.pod.namespace", "io.kubernetes.pod.name", "io.kubernetes.pod.uid",
	"io.kubernetes.container.name", "io.kubernetes.cri-o.ContainerType",
};

/* v's plain string into out (len bytes with its NUL) when ok(s, n) */
static bool take(const char *v, size_t vlen, char *out, size_t len, size_t max, bool dots)
{
	const char *s;
	size_t n;

	if (!uct_json_plain_string(v, vlen, &s, &n) || n >= len || !dns_name_ok(s, n, max, dots))
		return false;
	memcpy(out, s, n);
	out[n] = 0;
	return true;
}

static bool key_is(const struct uct_json_member *m, const char *key)
{
	return m->key_len == strlen(key) && !memcmp(m->key, key, m->key_len);
}

static bool identity_by(const char *ann, size_t n, const struct cri_keys *keys,
			struct uct_kube *k)
{
	struct uct_json_member m;
	size_t pos = 0;
	bool sandbox = false, ns = false, pod = false, ctr = false;
	const char *s;
	size_t len;
	int r;

	memset(k, 0, sizeof(*k));
	while ((r = uct_json_next(ann, n, &pos, &m)) == 1) {
		if (key_is(&m, keys->ns))
			ns = take(m.val, m.val_len, k->ns, sizeof(k->ns), UCT_KUBE_NS_MAX, false);
		else if (key_is(&m, keys->pod))
			pod = take(m.val, m.val_len, k->pod, sizeof(k->pod), UCT_KUBE_POD_MAX, true);
		else if (key_is(&m, keys->container))
			ctr = take(m.val, m.val_len, k->container, sizeof(k->container),
				   UCT_KUBE_CTR_MAX, false);
		else if (key_is(&m, keys->uid) && uct_json_plain_string(m.val, m.val_len, &s, &len))
			uid_from(s, len, '-', k->pod_uid);
		else if (key_is(&m, keys->type))
			sandbox = uct_json_plain_string(m.val, m.val_len, &s, &len) && len == 7 &&
				  !memcmp(s, "sandbox", 7);
	}
	if (r < 0 || !ns || !pod)
		goto none;
	if (sandbox) {
		k->container[0] = 0;
		return true;
	}
	if (ctr)
		return true;
none:
	memset(k, 0, sizeof(*k));
	return false;
}

bool uct_cri_identity(const char *json, size_t n, struct uct_kube *k)
{
	const char *ann;
	size_t len;

	memset(k, 0, sizeof(*k));
	if (!uct_json_get(json, n, "annotations", &ann, &len))
		return false;
	return identity_by(ann, len, &containerd_keys, k) || identity_by(ann, len, &crio_keys, k);
}

void uct_kube_display(const struct uct_kube *k, char *out, size_t len)
{
	if (k->container[0])
		snprintf(out, len, "%s/%s/%s", k->ns, k->pod, k->container);
	else
		snprintf(out, len, "%s/%s", k->ns, k->pod);
}

bool uct_kube_display_ok(const char *s, size_t n)
{
	const char *a = memchr(s, '/', n), *b;

	if (!a)
		return false;
	b = memchr(a + 1, '/', n - (size_t)(a + 1 - s));
	if (!dns_name_ok(s, (size_t)(a - s), UCT_KUBE_NS_MAX, false))
		return false;
	if (!b)
		return dns_name_ok(a + 1, n - (size_t)(a + 1 - s), UCT_KUBE_POD_MAX, true);
	return dns_name_ok(a + 1, (size_t)(b - a - 1), UCT_KUBE_POD_MAX, true) &&
	       dns_name_ok(b + 1, n - (size_t)(b + 1 - s), UCT_KUBE_CTR_MAX, false);
}
