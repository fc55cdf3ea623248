/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kube.h - a Kubernetes pod's identity, from what the runtime wrote
 * (no kubelet, no API server): the pod UID in a kubepods cgroup path,
 * and the pod's namespace, name and UID and the container's name in the
 * annotations of the container's OCI bundle (config.json), as
 * containerd's CRI plugin and CRI-O write them. A pod's sandbox (its
 * pause container) is the pod, with no container name.
 * Plain C on given text: the reader fetches the bytes (privread.h).
 */
#ifndef UCT_KUBE_H
#define UCT_KUBE_H

#include <stdbool.h>
#include <stddef.h>

#define UCT_POD_UID_LEN		36	/* 8-4-4-4-12 lowercase hex */
#define UCT_KUBE_NS_MAX		63	/* a namespace: a DNS label */
#define UCT_KUBE_POD_MAX	253	/* a pod's name: a DNS subdomain */
#define UCT_KUBE_CTR_MAX	63	/* a container's name: a DNS label */

struct uct_kube {
	char ns[UCT_KUBE_NS_MAX + 1];
	char pod[UCT_KUBE_POD_MAX + 1];
	char container[UCT_KUBE_CTR_MAX + 1];	/* "": the pod's sandbox */
	char pod_uid[UCT_POD_UID_LEN + 1];	/* "": not known */
};

/*
 * The pod UID in a cgroup v2 path, within its first trusted bytes
 * (cgroups.h): a component pod<UID> below a kubepods one (the cgroupfs
 * driver: /kubepods/burstable/pod<UID>/<id>) or one ending in
 * -pod<UID with '_' for '-'>.slice that starts with kubepods or
 * kubelet-kubepods (the systemd driver:
 * kubepods-burstable-pod<UID>.slice). As out, with dashes; false and ""
 * when there is none.
 */
bool uct_pod_uid(const char *path, size_t trusted, char out[UCT_POD_UID_LEN + 1]);

/*
 * The identity in an OCI bundle's config.json (n bytes at json): its
 * top-level "annotations", either containerd's CRI plugin's
 * (io.kubernetes.cri.sandbox-namespace, -name, -uid, container-name,
 * container-type) or CRI-O's (io.kubernetes.pod.namespace, .name, .uid,
 * io.kubernetes.container.name, io.kubernetes.cri-o.ContainerType). A
 * sandbox gets no container name. Only values Kubernetes accepts are
 * taken (DNS labels and subdomains, a UID); true when the namespace and
 * the pod's name were, and, for a container, its name.
 */
bool uct_cri_identity(const char *json, size_t n, struct uct_kube *k);

/* "namespace/pod/container", or "namespace/pod" for a sandbox: the name
 * the views show and --container takes */
void uct_kube_display(const struct uct_kube *k, char *out, size_t len);

/* Whether the n bytes at s are such a name: 2 or 3 parts joined by '/',
 * each what Kubernetes accepts there */
bool uct_kube_display_ok(const char *s, size_t n);

#endif /* UCT_KUBE_H */
