#!/bin/sh
# 5B: namespaces named by what runs in them, and found by container
# (KTAP). uct-workload --names builds 5A's namespaces in
# containers' cgroups (docker, podman nested in N1, docker's cgroupfs
# layout, CRI-O, containerd), with comms svc-n1 ..., hostnames of their
# own in N1, N2 and N6, a younger second process in N1, and three
# namespaces no process runs in any more: N5, held by N6 below it, N7,
# held by a message queue, and N8, held by N9, a namespace with no row
# (an fd holds it): only ucount[UCOUNT_USER_NAMESPACES] of N8's row tells. The batch view must end each namespace
# line with the short container id, the hostname when it is the
# namespace's own, and comm(pid) of the oldest process - or 'no task' and
# what holds it; JSON and OpenMetrics must say the same; --container
# must select by id prefix; '/' must search the live view. On a stock
# kernel (task iterator snapshots) N7 and N8 are not seen at all.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/names-workload.sh
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
PTY=${PTY:-/uct/bin/uct-pty}
T=/tmp/t5b
mkdir -p $T
echo "KTAP version 1"

[ -x "$UCT" ] && [ -x "$WL" ] && [ -x "$PTY" ] || { echo "# missing $UCT, $WL or $PTY"; exit 4; }

start_names_workload
sed 's/^/# /' $T/wl.out
expect "cgroup2 is mounted at /sys/fs/cgroup (guest/init)" "$(grep -c '^CGROUP none' $T/wl.out)" 0
# NAMES name inum level kuid uid-inside pid owner-kuid owner-in-parent comm
nm() { awk -v k="$1" -v f="$2" '$1 == "NAMES" && $2 == k { print $f }' $T/wl.out; }
# CONTAINER name kind id path
ct() { awk -v k="$1" -v f="$2" '$1 == "CONTAINER" && $2 == k { print $f }' $T/wl.out; }
short() { echo "$1" | cut -c1-12; }
init=$(readlink /proc/self/ns/user | tr -dc 0-9)
for k in 1 2 3 4 5 6 7 8 9; do eval "N$k=\$(nm N$k 3) P$k=\$(nm N$k 7) C$k=\$(ct N$k 4)"; done

# label INUM FILE: what a table's line of namespace INUM has after its four
# cells (the name column has 4 words, each cell 1)
label() {
	awk -v i="$1" '$1 == "ns" && $2 == i { for (k = 9; k <= NF; k++) printf "%s%s", $k, k < NF ? " " : ""; print "" }' "$2"
}
# table_names FILE: each table line's name, as 5A reads them
table_names() {
	awk 'f && NF { if ($1 == "ns") print $1, $2, $3, $4; else print $1, $2 }
	     /^\(ns lines:/ { f = 1 }' "$1"
}

$UCT -b -n 1 > $T/all.txt 2> $T/all.err
expect "ucounttop -b -n 1 exits 0" "$?" 0
expect "issue 11's chain: rows 'uid 2000' and 'uid 3000'" \
	"$(grep -c '^ *uid 2000 ' $T/all.txt) $(grep -c '^ *uid 3000 ' $T/all.txt)" "1 1"
expect "N1: docker's short id, its own hostname, its oldest process (not svc-n1-b)" \
	"$(label $N1 $T/all.txt)" "$(short $C1) n1-web svc-n1($P1)"
expect "N2 (podman, nested in N1's namespace): its id, hostname, process" \
	"$(label $N2 $T/all.txt)" "$(short $C2) n2-db svc-n2($P2)"
expect "N3 (docker's cgroupfs layout /docker/<id>, the initial hostname): no hostname shown" \
	"$(label $N3 $T/all.txt)" "$(short $C3) svc-n3($P3)"
expect "N4 (CRI-O)" "$(label $N4 $T/all.txt)" "$(short $C4) svc-n4($P4)"
expect "N5: no process; N6, a namespace it created, holds it" \
	"$(label $N5 $T/all.txt)" "no task (ns)"
expect "N6 (containerd), below N5" "$(label $N6 $T/all.txt)" "$(short $C6) n6-job svc-n6($P6)"
# a stock kernel's snapshot comes from the task iterator, which sees no
# ucounts that only a queue holds: N7 is not there at all
snap=$(sed -n 's/.*  snapshot \([^ ]*\)  .*/\1/p' $T/all.txt)
if [ "$snap" = iter/task ]; then
	expect "N7, N8 (iter/task): not in the snapshot, no process leads to them" \
		"$(grep -c "^ *ns \($N7\|$N8\) " $T/all.txt)" 0
else
	expect "N7: no process; its message queue holds it" "$(label $N7 $T/all.txt)" "no task (mq)"
	expect "N8: no process; N9, a namespace it created (with no row), holds it" \
		"$(label $N8 $T/all.txt)" "no task (ns)"
fi
expect "N9: no row, no line" "$(grep -c "^ *ns $N9 " $T/all.txt)" 0
expect "the initial namespace: its oldest process, pid 1" "$(label $init $T/all.txt)" "init(1)"

$UCT --json -n 1 > $T/j.json 2> $T/j.err
expect "ucounttop --json -n 1 exits 0" "$?" 0
sed 's/{"ns":/\n{"ns":/g' $T/j.json > $T/j.lines
nsobj() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"owner_uid\":" $T/j.lines; }
# names INUM: pid comm hostname cgroup container_id tasks held_by of its
# object (its container_name must be null: no engine made these; pod()
# reads its pod)
names() {
	nsobj "$1" | sed -n 's/.*"rows":[0-9]*,"pid":\([0-9a-z]*\),"comm":\("[^"]*"\|null\),"hostname":\("[^"]*"\|null\),"cgroup":\("[^"]*"\|null\),"container_id":\("[^"]*"\|null\),"container_name":null,"container_owner_uid":null,"pod":\(null\|{[^}]*}\),"tasks":\([0-9a-z]*\),"held_by":\(\[[^]]*\]\|null\)}.*/\1 \2 \3 \4 \5 \7 \8/p'
}
# pod INUM [FILE]: the container_name and pod of its object
pod() {
	grep "^{\"ns\":$1,\"level\":[0-9]*,\"owner_uid\":" "${2:-$T/j.lines}" |
		sed -n 's/.*"container_name":\("[^"]*"\|null\),"container_owner_uid":null,"pod":\(null\|{[^}]*}\),.*/\1 \2/p'
}
expect "JSON N1: pid, comm, hostname, cgroup, full container id, 2 processes, held by nothing" \
	"$(names $N1)" "$P1 \"svc-n1\" \"n1-web\" \"$(ct N1 5)\" \"$C1\" 2 []"
expect "JSON N2: podman's path, inside the container's cgroup namespace layout" \
	"$(names $N2)" "$P2 \"svc-n2\" \"n2-db\" \"$(ct N2 5)\" \"$C2\" 1 []"
expect "JSON N3: the hostname it sees, the initial one" \
	"$(names $N3)" "$P3 \"svc-n3\" \"$(hostname)\" \"$(ct N3 5)\" \"$C3\" 1 []"
expect "JSON N5: no process, held by a child namespace" \
	"$(names $N5)" "null null null null null 0 [\"child_namespace\"]"
expect "JSON N6" "$(names $N6)" "$P6 \"svc-n6\" \"n6-job\" \"$(ct N6 5)\" \"$C6\" 1 []"
expect "JSON N6 (a kubepods path, no bundle): its pod's UID from the path, nothing else" \
	"$(pod $N6)" 'null {"namespace":null,"name":null,"uid":"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","container":null}'
expect "JSON N1 (Docker's path): no pod" "$(pod $N1)" "null null"
if [ "$snap" != iter/task ]; then
	expect "JSON N7: no process, held by a queue" \
		"$(names $N7)" "null null null null null 0 [\"queue\"]"
	expect "JSON N8: no process, held by a child namespace" \
		"$(names $N8)" "null null null null null 0 [\"child_namespace\"]"
fi
expect "JSON: the initial namespace's process is pid 1, in the root cgroup" \
	"$(names $init | cut -d' ' -f1,4,5)" '1 "/" null'

$UCT --openmetrics -n 1 > $T/om 2> $T/om.err
expect "--openmetrics -n 1 exits 0" "$?" 0
expect "OpenMetrics: an info family joined on ns, with the full id and the hostname; no empty label" \
	"$(grep -c '^# TYPE ucounttop_namespace info$' $T/om) $(grep -c "^ucounttop_namespace_info{ns=\"$N1\",level=\"1\",container_id=\"$C1\",hostname=\"n1-web\"} 1\$" $T/om) $(grep -c "^ucounttop_namespace_info{ns=\"$N5\",level=\"1\"} 1\$" $T/om) $(grep -c '=""' $T/om)" \
	"1 1 1 0"
expect "OpenMetrics: no pid label anywhere; every sample line still name{labels} value" \
	"$(grep -c 'pid=' $T/om) $(grep -v '^#' $T/om | grep -Ecv '^ucounttop_[a-z_]+(\{[^}]*\})? [-+0-9.Inf]+$')" "0 0"

# --container: by prefix, any case; the matching namespaces, what is
# below them, and the rows their charges reach on the way up
$UCT -b -n 1 --container "$(short $C2)" > $T/c2.txt 2>&1
expect "--container (N2's short id): N2, and the rows that created it and N1" \
	"$(table_names $T/c2.txt)" "ns $init L0 init
uid 1000
ns $N1 L1 o1000
uid 2000
ns $N2 L2 o2000
uid 3000"
$UCT -b -n 1 --container "$(echo $C6 | cut -c1-5 | tr a-f A-F)" > $T/c6.txt 2>&1
expect "--container (N6's, 5 digits in upper case): N6 under N5, which no process holds" \
	"$(table_names $T/c6.txt)" "ns $init L0 init
uid 1000
ns $N5 L1 o1000
uid 0
ns $N6 L2 o0
uid 0"
$UCT -b -n 1 --container "$(short $C3)" > $T/c3.txt 2>&1
expect "--container (N3's, from /docker/<id>)" \
	"$(table_names $T/c3.txt)" "ns $init L0 init
uid 1000
ns $N3 L1 o1000
uid -(k1000)"
$UCT -b -n 1 --container deadbeef > $T/cnone.txt 2>&1
expect "--container of no container: exit 0, said on the summary line, no line" \
	"$? $(grep -c '  container deadbeef (no match)' $T/cnone.txt) $(table_names $T/cnone.txt | wc -l)" "0 1 0"
$UCT -b -n 1 --container web-1 > $T/cname.txt 2>&1
expect "--container web-1 (a name no engine gave here): exit 0, no match" \
	"$? $(grep -c '  container web-1 (no match)' $T/cname.txt)" "0 1"
$UCT -b -n 1 --container Web/1 > $T/cbad.txt 2>&1
expect "--container Web/1 (neither an id, nor a name, nor a pod, nor a user's): usage error, exit 2" \
	"$? $(grep -c "^ucounttop: --container needs a container id or a prefix of one (1 to 64 hex digits), a container's name as Docker gives it (\[a-zA-Z0-9\]\[a-zA-Z0-9_.-\]\*, at most 63 bytes), a Kubernetes pod's NAMESPACE/POD\[/CONTAINER\] or a rootless Podman's USER:NAME, got 'Web/1'" $T/cbad.txt)" "2 1"

# '/' in the live view: typing a hostname narrows the view to N6, with N5
# and the initial namespace's creator row above it (uct-pty: '|' Enter)
ESC=$(printf '\033')
plain() { sed -e "s/$ESC\[H/\n/g" -e "s/$ESC\[[0-9;?]*[a-zA-Z]//g" "$1" | tr -d '\r'; }
lastframe() { plain "$1" | awk '/^ucounttop [0-9]/ { f = "" } { f = f $0 "\n" } END { printf "%s", f }'; }
$PTY 140x40 '/n6-J|q' -- $UCT -d 0.5 > $T/tty 2>&1
expect "tty: / n6-J Enter q exits 0" "$?" 0
lastframe $T/tty > $T/frame
expect "tty: the search is kept on the summary line" "$(grep -c '  search "n6-J"  ' $T/frame)" 1
expect "tty: N6's line, named, under N5's and the initial namespace's" \
	"$(awk '$2 == "ns" { print $3, $NF }' $T/frame)" "$init init(1)
$N5 (ns)
$N6 svc-n6($P6)"


# Kubernetes: what containerd's CRI plugin and CRI-O write into each
# container's OCI bundle (their documented layouts), made here by root:
# N6 is container nginx of pod shop/web-1, N4 the sandbox (pause
# container) of kube-system/db-0. A tenant's environment variable that
# looks like annotations is not them.
CDB=/run/containerd/io.containerd.runtime.v2.task/k8s.io/$C6
CRB=/run/containers/storage/overlay-containers/$C4/userdata
mkdir -p $CDB $CRB
printf '{"ociVersion":"1.0.2","process":{"env":["A={\\"annotations\\":{\\"io.kubernetes.cri.sandbox-name\\":\\"x\\"}}"]},"annotations":{"io.kubernetes.cri.container-type":"container","io.kubernetes.cri.sandbox-id":"%s","io.kubernetes.cri.sandbox-name":"web-1","io.kubernetes.cri.sandbox-namespace":"shop","io.kubernetes.cri.sandbox-uid":"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","io.kubernetes.cri.container-name":"nginx"}}' \
	"$C1" > $CDB/config.json
printf '%s\n' '{' '  "ociVersion": "1.0.2",' '  "annotations": {' \
	'    "io.kubernetes.cri-o.ContainerType": "sandbox",' \
	'    "io.kubernetes.container.name": "POD",' \
	'    "io.kubernetes.pod.name": "db-0",' \
	'    "io.kubernetes.pod.namespace": "kube-system",' \
	'    "io.kubernetes.pod.uid": "5f4e3d2c-1b0a-4998-8877-665544332211"' '  }' '}' > $CRB/config.json
$UCT -b -n 1 > $T/k8s.txt 2>&1
expect "Kubernetes: N6 is namespace/pod/container, from containerd's bundle" \
	"$(label $N6 $T/k8s.txt)" "shop/web-1/nginx n6-job svc-n6($P6)"
expect "Kubernetes: N4, CRI-O's sandbox, is its pod" \
	"$(label $N4 $T/k8s.txt)" "kube-system/db-0 svc-n4($P4)"
$UCT --json -n 1 2> /dev/null | sed 's/{"ns":/\n{"ns":/g' > $T/k8s.lines
expect "JSON N6: its pod (the UID the path's), the container" "$(pod $N6 $T/k8s.lines)" \
	'"shop/web-1/nginx" {"namespace":"shop","name":"web-1","uid":"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","container":"nginx"}'
expect "JSON N4: the sandbox: its pod, no container" "$(pod $N4 $T/k8s.lines)" \
	'"kube-system/db-0" {"namespace":"kube-system","name":"db-0","uid":"5f4e3d2c-1b0a-4998-8877-665544332211","container":null}'
$UCT --openmetrics -n 1 > $T/k8s.om 2> /dev/null
expect "OpenMetrics: Kubernetes' label names on N6's and N4's info" \
	"$(grep -c "^ucounttop_namespace_info{ns=\"$N6\",level=\"2\",container_id=\"$C6\",namespace=\"shop\",pod=\"web-1\",container=\"nginx\",pod_uid=\"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\",hostname=\"n6-job\"} 1\$" $T/k8s.om) $(grep -c "^ucounttop_namespace_info{ns=\"$N4\",level=\"1\",container_id=\"$C4\",namespace=\"kube-system\",pod=\"db-0\",pod_uid=\"5f4e3d2c-1b0a-4998-8877-665544332211\",hostname=\"$(hostname)\"} 1\$" $T/k8s.om)" \
	"1 1"
$UCT -b -n 1 --container shop/web-1 > $T/kpod.txt 2>&1
expect "--container shop/web-1 (the pod): N6 under N5" \
	"$(table_names $T/kpod.txt)" "ns $init L0 init
uid 1000
ns $N5 L1 o1000
uid 0
ns $N6 L2 o0
uid 0"
$UCT -b -n 1 --container kube-system/db-0 > $T/ksb.txt 2>&1
expect "--container kube-system/db-0 (the pod of the sandbox): N4" \
	"$(table_names $T/ksb.txt | grep -c "^ns $N4 ")" 1
$UCT -b -n 1 --container kube-system/db-0/postgres > $T/kctr.txt 2>&1
expect "--container kube-system/db-0/postgres (the sandbox is no container of that name): no match" \
	"$? $(grep -c '  container kube-system/db-0/postgres (no match)' $T/kctr.txt)" "0 1"
rm -rf /run/containerd/io.containerd.runtime.v2.task/k8s.io/$C6 /run/containers/storage/overlay-containers/$C4
cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
