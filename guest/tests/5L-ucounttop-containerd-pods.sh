#!/bin/sh
# 5L: a Kubernetes pod as the real containerd (Debian 12's, from the
# engine layer that tests/host/engines.sh adds; without it, skipped)
# runs it for its CRI plugin, without a kubelet: ctr in containerd's
# k8s.io namespace, in the pod's kubepods cgroup (cgroupfs driver), with
# the annotations the CRI plugin writes into each container's OCI
# bundle, from an OCI image made here of the guest's static busybox
# (nothing is pulled). The pod shop/web-1 has its sandbox (the pause
# container) and one container, nginx, each in a user namespace of its
# own mapping 0-65535 to a range of host ids (hostUsers: false; ctr maps
# per container). ucounttop must name the sandbox's namespace after its
# pod and nginx's namespace/pod/container, give the pod's UID from the
# cgroup path, put Kubernetes' label names on the namespace info metric
# and select the pod and the container with --container (KTAP).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/engines.sh
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5l
echo "KTAP version 1"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
command -v containerd > /dev/null 2>&1 && command -v ctr > /dev/null 2>&1 ||
	{ echo "# no containerd in this guest: tests/host/engines.sh adds the engine layer"; exit 4; }
[ -x "$UCT" ] || { echo "# missing $UCT"; exit 4; }
rm -rf $T
mkdir -p $T/rootfs/bin
init=$(readlink /proc/self/ns/user | tr -dc 0-9)
UID_=5c0ffee5-1b2c-4d3e-8f40-5162738495a6
SB=aa$(echo sandbox | sha256sum | cut -c3-64)
NG=bb$(echo nginx | sha256sum | cut -c3-64)

containerd > $T/containerd.log 2>&1 &
cd_pid=$!
cleanup() {
	for c in $NG $SB; do
		ctr -n k8s.io task kill -s KILL $c > /dev/null 2>&1
		ctr -n k8s.io task delete -f $c > /dev/null 2>&1
		ctr -n k8s.io container delete $c > /dev/null 2>&1
	done
	kill $cd_pid 2> /dev/null
	wait $cd_pid 2> /dev/null
}
trap cleanup EXIT
answers containerd $T/containerd.log ctr version
# no image to pull: an OCI image layout of one layer, the guest's static
# busybox, imported
cp /bin/busybox $T/rootfs/bin/
for a in sh sleep; do ln -s busybox $T/rootfs/bin/$a; done
oci=$T/oci
mkdir -p $oci/blobs/sha256
tar -C $T/rootfs -cf $T/layer.tar .
blob() {	# blob FILE: stored under its digest; prints "digest size"
	d=$(sha256sum "$1" | cut -d' ' -f1)
	mv "$1" $oci/blobs/sha256/$d
	echo "$d $(wc -c < $oci/blobs/sha256/$d)"
}
set -- $(blob $T/layer.tar)
layer=$1 lsize=$2
printf '{"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
	$layer > $T/config.json
set -- $(blob $T/config.json)
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' \
	$1 $2 $layer $lsize > $T/manifest.json
set -- $(blob $T/manifest.json)
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"platform":{"architecture":"amd64","os":"linux"},"annotations":{"org.opencontainers.image.ref.name":"1"}}]}' \
	$1 $2 > $oci/index.json
echo '{"imageLayoutVersion":"1.0.0"}' > $oci/oci-layout
tar -C $oci -cf $T/oci.tar .
# the native snapshotter: a copy per container, whatever the kernel
export CONTAINERD_SNAPSHOTTER=native
ctr -n k8s.io images import --base-name uct $T/oci.tar > $T/import.out 2>&1
expect "an OCI image of busybox imported" "$? $(ctr -n k8s.io images ls -q 2> /dev/null | grep -c '^uct:1$')" "0 1"
sed 's/^/# /' $T/import.out

# run ID TYPE HOSTBASE [CONTAINER]: one of the pod's containers, as the
# CRI plugin creates it, in a user namespace mapping 0-65535 to
# HOSTBASE-
run() {
	id=$1 type=$2 base=$3 name=$4
	set -- --annotation io.kubernetes.cri.container-type=$type \
		--annotation io.kubernetes.cri.sandbox-id=$SB \
		--annotation io.kubernetes.cri.sandbox-name=web-1 \
		--annotation io.kubernetes.cri.sandbox-namespace=shop \
		--annotation io.kubernetes.cri.sandbox-uid=$UID_
	[ -n "$name" ] && set -- "$@" --annotation io.kubernetes.cri.container-name=$name
	ctr -n k8s.io run -d --null-io --uidmap 0:$base:65536 --gidmap 0:$base:65536 \
		--cgroup /kubepods/besteffort/pod$UID_/$id "$@" uct:1 $id /bin/sleep 100000 \
		> $T/$id.out 2>&1 || { r=$?; sed 's/^/# /' $T/$id.out; return $r; }
}
run $SB sandbox 200000
expect "the sandbox (pause container) runs" "$?" 0
run $NG container 300000 nginx
expect "container nginx runs" "$?" 0
pid_of() { ctr -n k8s.io task ls 2> /dev/null | awk -v id="$1" '$1 == id { print $2 }'; }
SBP=$(pid_of $SB)
NGP=$(pid_of $NG)
SBN=$(readlink /proc/$SBP/ns/user | tr -dc 0-9)
NGN=$(readlink /proc/$NGP/ns/user | tr -dc 0-9)
expect "each in a user namespace of its own, its cgroup below the pod's" \
	"$(test "$SBN" != "$init" && test "$NGN" != "$init" && test "$SBN" != "$NGN" && echo own) $(cat /proc/$NGP/cgroup)" \
	"own 0::/kubepods/besteffort/pod$UID_/$NG"
expect "the CRI plugin's bundle is where containerd keeps its tasks" \
	"$(grep -c '"io.kubernetes.cri.container-name":"nginx"' /run/containerd/io.containerd.runtime.v2.task/k8s.io/$NG/config.json)" 1

# label INUM FILE: what a table's line of namespace INUM has after its
# four cells
label() {
	awk -v i="$1" '$1 == "ns" && $2 == i { for (k = 9; k <= NF; k++) printf "%s%s", $k, k < NF ? " " : ""; print "" }' "$2"
}
$UCT -b -n 1 > $T/all.txt 2> $T/all.err
expect "table: the sandbox's namespace is its pod, nginx's namespace/pod/container" \
	"$(label $SBN $T/all.txt | cut -d' ' -f1) $(label $NGN $T/all.txt | cut -d' ' -f1)" \
	"shop/web-1 shop/web-1/nginx"
$UCT --json -n 1 2> /dev/null | sed 's/{"ns":/\n{"ns":/g' > $T/j.lines
pod() {
	grep "^{\"ns\":$1,\"level\":[0-9]*,\"owner_uid\":" $T/j.lines |
		sed -n 's/.*"container_name":\("[^"]*"\|null\),"container_owner_uid":null,"pod":\(null\|{[^}]*}\),.*/\1 \2/p'
}
expect "JSON: the sandbox's pod, no container" "$(pod $SBN)" \
	"\"shop/web-1\" {\"namespace\":\"shop\",\"name\":\"web-1\",\"uid\":\"$UID_\",\"container\":null}"
expect "JSON: nginx's pod and container" "$(pod $NGN)" \
	"\"shop/web-1/nginx\" {\"namespace\":\"shop\",\"name\":\"web-1\",\"uid\":\"$UID_\",\"container\":\"nginx\"}"
$UCT --openmetrics -n 1 > $T/om 2> /dev/null
expect "OpenMetrics: namespace, pod, container and pod_uid on the namespaces' info" \
	"$(grep -c "^ucounttop_namespace_info{ns=\"$NGN\",level=\"1\",container_id=\"$NG\",namespace=\"shop\",pod=\"web-1\",container=\"nginx\",pod_uid=\"$UID_\"" $T/om) $(grep -c "^ucounttop_namespace_info{ns=\"$SBN\",level=\"1\",container_id=\"$SB\",namespace=\"shop\",pod=\"web-1\",pod_uid=\"$UID_\"" $T/om)" \
	"1 1"
nslines() { awk '$1 == "ns" { print $2 }' "$1" | sort | tr '\n' ' '; }
$UCT -b -n 1 --container shop/web-1 > $T/pod.txt 2>&1
expect "--container shop/web-1: the pod's two namespaces and the initial one" \
	"$(nslines $T/pod.txt)" "$(printf '%s\n' $init $SBN $NGN | sort | tr '\n' ' ')"
$UCT -b -n 1 --container shop/web-1/nginx > $T/ng.txt 2>&1
expect "--container shop/web-1/nginx: its namespace and the initial one" \
	"$(nslines $T/ng.txt)" "$(printf '%s\n' $init $NGN | sort | tr '\n' ' ')"

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
