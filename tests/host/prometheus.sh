#!/bin/bash
# A real Prometheus server scraping ucounttop --listen in the guest, as a
# platform team would run it: Debian's prometheus (unpacked by
# guest/deps.sh, not installed), bound to 127.0.0.1 with its data in a
# temporary directory, scraping the guest through QEMU's user-network
# forwarding (guest/run --forward). The guest runs a known workload,
# uct-workload --shared-uid: uid 9000 under RLIMIT_NPROC 5 in two
# containers sharing the initial user namespace, A (Docker-style) with 3
# processes and B (containerd-style) with 2, B's sixth fork refused; and
# a Kubernetes pod's container, shop/web-1/nginx (containerd's CRI
# plugin's cgroup and bundle annotations), in a user namespace of its
# own. A second target serves kube_pod_info as kube-state-metrics does,
# for that pod and another. PromQL queries through Prometheus' HTTP API
# must return exactly that, and ucounttop(8)'s join of its counters with
# kube_pod_info must give the pod's node.
# TAP. Bounded: the guest's setup within BOOT_SECS, the first scrape with
# every series within 120 s.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

BOOT_SECS=${BOOT_SECS:-600}
PROMETHEUS=${PROMETHEUS:-$CACHE_DIR/promtool/prometheus}
A=aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111
B=bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222
C=cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333
# the pod UID uct-workload's containerd cgroups carry (uct-container.h)
POD_UID=0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9
tmp=$(mktemp -d)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"
guest_pid= prom_pid= ksm_pid=
cleanup() {
	[ -n "$prom_pid" ] && kill "$prom_pid" 2> /dev/null && wait "$prom_pid" 2> /dev/null
	[ -n "$ksm_pid" ] && kill "$ksm_pid" 2> /dev/null && wait "$ksm_pid" 2> /dev/null
	# guest/run and its QEMU: a session of their own (setsid), in which
	# timeout(1) makes a process group of its own
	[ -n "$guest_pid" ] && pkill -KILL -s "$guest_pid" 2> /dev/null && wait "$guest_pid" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

if [ ! -x "$PROMETHEUS" ]; then
	nok "Debian's prometheus is unpacked at $PROMETHEUS (guest/deps.sh)"
	finish
fi
# three free ports on the host's loopback: the guest's forward,
# Prometheus, the kube-state-metrics stand-in
hp=$(free_port) qp=$(free_port) kp=$(free_port)

cat > "$tmp/guest.sh" << EOF
ucounttop --listen 0.0.0.0:9465 -d 1 2> /tmp/listen.err &
i=0
until grep -q '^ucounttop: serving' /tmp/listen.err; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/listen.err; exit 1; }
	usleep 100000
done
uct-workload --shared-uid 9000 5 docker:$A:3 containerd:$B:2 > /tmp/wl.out 2>&1 &
i=0
until grep -q '^READY' /tmp/wl.out; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/wl.out; exit 1; }
	usleep 100000
done
cat /tmp/wl.out
# the pod's container: its bundle as containerd's CRI plugin writes it,
# its process in a user namespace of its own (hostUsers: false)
b=/run/containerd/io.containerd.runtime.v2.task/k8s.io/$C
mkdir -p \$b
printf '%s' '{"ociVersion":"1.1.0","annotations":{"io.kubernetes.cri.container-type":"container","io.kubernetes.cri.sandbox-namespace":"shop","io.kubernetes.cri.sandbox-name":"web-1","io.kubernetes.cri.container-name":"nginx"}}' > \$b/config.json
uct-workload --container containerd $C -- unshare -U -r sleep 3000 &
echo UCT-GUEST-READY
# held until the host has its answers and stops this guest
sleep 3000
EOF
# not -q: the console is read as it comes (run.out)
setsid "$UCT_ROOT/guest/run" --timeout 3600 --forward "$hp:9465" \
	-f "$tmp/guest.sh" > "$tmp/run.out" 2>&1 < /dev/null &
guest_pid=$!
for ((i = 0; i < BOOT_SECS; i++)); do
	grep -aq '^UCT-GUEST-READY' "$tmp/run.out" 2> /dev/null && break
	kill -0 "$guest_pid" 2> /dev/null || break
	sleep 1
done
if ! grep -aq '^UCT-GUEST-READY' "$tmp/run.out" 2> /dev/null; then
	nok "the guest serves --listen with the workload running (forwarded to 127.0.0.1:$hp)"
	sed 's/^/# /' "$tmp/run.out" | tail -n 30
	finish
fi
ok "the guest serves --listen with the workload running (forwarded to 127.0.0.1:$hp)"
grep -aE '^(SHARE|FORK)' "$tmp/run.out" | tr -d '\r' | sed 's/^/# /'

# kube_pod_info with kube-state-metrics' labels (its uid is the pod's)
mkdir -p "$tmp/ksm"
cat > "$tmp/ksm/metrics" << EOF
# HELP kube_pod_info Information about pod.
# TYPE kube_pod_info gauge
kube_pod_info{namespace="shop",pod="web-1",uid="$POD_UID",host_ip="10.0.0.11",pod_ip="10.244.1.7",node="node-1",created_by_kind="ReplicaSet",created_by_name="web-7d4b9",priority_class="",host_network="false"} 1
kube_pod_info{namespace="shop",pod="db-0",uid="9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",host_ip="10.0.0.12",pod_ip="10.244.2.3",node="node-2",created_by_kind="StatefulSet",created_by_name="db",priority_class="",host_network="false"} 1
EOF
"$PY" -m http.server "$kp" --bind 127.0.0.1 --directory "$tmp/ksm" > "$tmp/ksm.log" 2>&1 &
ksm_pid=$!
cat > "$tmp/prometheus.yml" << EOF
global:
  scrape_interval: 5s
  scrape_timeout: 5s
scrape_configs:
  - job_name: ucounttop
    static_configs:
      - targets: ["127.0.0.1:$hp"]
  - job_name: kube-state-metrics
    static_configs:
      - targets: ["127.0.0.1:$kp"]
EOF
"$PROMETHEUS" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$qp" --log.level=warn > "$tmp/prom.log" 2>&1 &
prom_pid=$!

# query PROMQL: each result's value, "labels=value" sorted, one per line
query() {
	curl -sf --get --data-urlencode "query=$1" "http://127.0.0.1:$qp/api/v1/query" |
		"$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
out = []
for r in d["data"]["result"]:
    m = r["metric"]
    out.append(",".join("%s=%s" % (k, m[k]) for k in sorted(m) if k not in ("instance", "job")) + "=" + r["value"][1])
print("\n".join(sorted(out)))'
}
# the last series to appear: B's refusal, on the series of the split;
# and the last scrape a good one (a TCG guest on a busy host may answer
# one late: a failed scrape makes every series stale)
q_den="ucounttop_container_denials_total{kuid=\"9000\",container_id=\"$B\",type=\"nproc\"}"
for ((i = 0; i < 120; i++)); do
	[ -n "$(query "$q_den" 2> /dev/null)" ] &&
		[ "$(query 'up{job="ucounttop"}' 2> /dev/null | sed 's/.*=//')" = 1 ] && break
	kill -0 "$prom_pid" 2> /dev/null || break
	sleep 1
done
expect "Prometheus scrapes the target: up == 1" "$(query 'up{job="ucounttop"}' | sed 's/.*=//')" 1
init=$(query 'ucounttop_build_info' | head -n 1 | grep -c version)
expect "ucounttop_build_info is there, with a version" "$init" 1
expect "uid 9000's row in the initial namespace: 5 processes" \
	"$(query 'ucounttop_nproc_processes{kuid="9000",level="0"}' | sed 's/.*=//')" 5
expect "its limit: the RLIMIT_NPROC its processes run under, 5 (it created no namespace)" \
	"$(query 'ucounttop_nproc_limit_processes{kuid="9000",level="0"}' | sed 's/.*=//')" 5
expect "its usage ratio (contrib's recording rule's expression): 1" \
	"$(query 'ucounttop_nproc_processes{kuid="9000",level="0"} / ucounttop_nproc_limit_processes' | sed 's/.*=//')" 1
expect "split by container: A 3, B 2" \
	"$(query 'ucounttop_container_nproc_processes{kuid="9000"}' | sed 's/.*container_id=\([0-9a-f]*\),.*=\([0-9]*\)$/\1 \2/')" \
	"$A 3
$B 2"
expect "the shares add up to the row (PromQL)" \
	"$(query 'sum(ucounttop_container_nproc_processes{kuid="9000"}) == on() ucounttop_nproc_processes{kuid="9000",level="0"}' | sed 's/.*=//')" 5
expect "B's refused fork: 1 on B, none on A" \
	"$(query 'ucounttop_container_denials_total{kuid="9000",type="nproc"}' | sed 's/.*container_id=\([0-9a-f]*\),.*=\([0-9]*\)$/\1 \2/')" \
	"$A 0
$B 1"
expect "the row's refusals: 1" \
	"$(query 'ucounttop_denials_total{kuid="9000",level="0",type="nproc"}' | sed 's/.*=//')" 1
expect "rows are labelled kuid, no series uid: kube-state-metrics' (a pod's UID) is not ours" \
	"$(query 'count({job="ucounttop",kuid!=""}) > 0' | grep -c .) $(query 'count({job="ucounttop",uid!=""})' | grep -c .)" "1 0"
expect "the pod's namespace: its info has Kubernetes' labels" \
	"$(query 'ucounttop_namespace_info{pod="web-1"}' | sed 's/^__name__=[a-z_]*,//; s/container_id=[0-9a-f]*,//; s/hostname=[^,]*,//; s/,ns=[0-9]*//')" \
	"container=nginx,level=1,namespace=shop,pod=web-1,pod_uid=$POD_UID=1"
# ucounttop(8)'s join, as the page prints it
join=$(sed -n '/^sum by (namespace, pod) (ucounttop_nproc_processes$/,/kube_pod_info$/p' \
	"$UCT_ROOT/cli/ucounttop.8" | tr '\n' ' ')
for ((i = 0; i < 60; i++)); do
	[ -n "$(query 'kube_pod_info' 2> /dev/null)" ] && break
	sleep 1
done
expect "ucounttop(8)'s PromQL join reaches kube_pod_info: the pod's processes on its node" \
	"$(query "$join")" "namespace=shop,node=node-1,pod=web-1=1"
grep -v '^$' "$tmp/prom.log" | head -n 5 | sed 's/^/# prometheus: /'
finish
