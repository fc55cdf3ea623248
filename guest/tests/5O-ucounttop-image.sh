#!/bin/sh
# 5O: ucounttop's OCI image (packaging/oci: the .deb's files and the
# libraries they load, built here with Debian 12's podman from the
# context tests/host/engines.sh adds at /uct/add/oci; without it or
# podman, skipped), run as its Containerfile says: the host's PID and
# cgroup namespaces and network, the host's
# /etc/passwd and /etc/group, the capabilities to load and read, no
# seccomp profile of the engine's. It must serve the host's rows, not
# the container's: a process of the host's alice (kuid 1000) counted in
# the initial namespace and named as the host names it, a user namespace
# of the host's (uct-workload --names) with its own passwd's name and
# another's container id, and exit 0 when podman stops it. Then as
# Kubernetes runs a pod on cgroup v2, in a cgroup namespace of its own
# with the host's /sys/fs/cgroup mounted in: the reader enters the
# host's cgroup namespace, and the container id is there again (KTAP).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/names-workload.sh
T=/tmp/t5o
CTX=/uct/add/oci
WL=/uct/bin/uct-workload
echo "KTAP version 1"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
command -v podman > /dev/null 2>&1 ||
	{ echo "# no Podman in this guest: tests/host/engines.sh adds the engine layer"; exit 4; }
[ -d $CTX/rootfs ] || { echo "# no image context at $CTX: tests/host/engines.sh adds it"; exit 4; }
rm -rf $T
mkdir -p $T /var/tmp
chmod 1777 /var/tmp
init=$(readlink /proc/self/ns/user | tr -dc 0-9)
pm() { podman --storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"; }

pm build -q -t localhost/ucounttop:test -f $CTX/Containerfile $CTX/rootfs > $T/build.out 2> $T/build.err
rc=$?
expect "podman build makes the image from the context" "$rc" 0
[ $rc = 0 ] || sed 's/^/# /' $T/build.err | tail -n 5

start_names_workload
$WL --exec-as 1000 -- /bin/sleep 100000 &
sl=$!
cleanup() {
	pm rm -f -t 0 uct > /dev/null 2>&1
	kill $sl $wl 2> /dev/null
	wait $sl $wl 2> /dev/null
}
trap cleanup EXIT

# as packaging/oci/Containerfile says to run it
pm run -d --name uct --pid=host --cgroupns=host --network=host \
	--cap-drop=all --cap-add=BPF,PERFMON,SYS_ADMIN,SYSLOG,SYS_PTRACE,DAC_READ_SEARCH,SETUID,SETGID,SETPCAP \
	--security-opt seccomp=unconfined \
	-v /etc/passwd:/etc/passwd:ro -v /etc/group:/etc/group:ro \
	localhost/ucounttop:test --listen 127.0.0.1:9467 -d 1 > $T/run.out 2> $T/run.err
expect "the image runs (podman run -d)" "$?" 0
serving() { pm logs uct 2>&1 | grep -q '^ucounttop: serving'; }
waitfor 600 serving
pm logs uct > $T/logs 2>&1
before=$fails
expect "ucounttop in the container serves /metrics" "$(grep -c '^ucounttop: serving http://127.0.0.1:9467/metrics' $T/logs)" 1
[ $fails = $before ] || { sed 's/^/# /' $T/logs | tail -n 10; sed 's/^/# /' $T/run.err; }
# a namespace of the workload's in a Docker container's cgroup: its id
read -r cname _ cid _ << EOF
$(awk '$1 == "CONTAINER" && $3 == "docker" { print $2, $3, $4, $5; exit }' $T/wl.out)
EOF
cns=$(awk -v k="$cname" '$1 == "NAMES" && $2 == k { print $3 }' $T/wl.out)
# has_cid FILE: the namespace's info names the container
has_cid() { grep -c "^ucounttop_namespace_info{ns=\"$cns\",level=\"[0-9]*\",container_id=\"$cid\"" "$1"; }
wget -q -O $T/m http://127.0.0.1:9467/metrics
expect "the host's rows: kuid 1000's in the initial namespace, named as the host names it" \
	"$(grep -c "^ucounttop_nproc_processes{ns=\"$init\",level=\"0\",kuid=\"1000\"} [1-9]" $T/m) $(grep -c "^ucounttop_user_info{ns=\"$init\",kuid=\"1000\",user=\"alice\"} 1" $T/m)" \
	"1 1"
expect "... a host's user namespace, named by its own passwd file" \
	"$(grep -c 'user="n1-app"' $T/m)" 1
expect "... and $cname's container id ($cid)" "$(has_cid $T/m)" 1
pm stop -t 10 uct > /dev/null 2>&1
expect "podman stop ends it with status 0" "$(pm inspect -f '{{.State.ExitCode}}' uct)" 0
pm rm uct > /dev/null 2>&1

# as Kubernetes runs contrib/kubernetes/ucounttop.yaml's pod: a cgroup
# namespace of its own, the host's /sys/fs/cgroup mounted in (a hostPath
# volume), a read-only root
pm run -d --name uct --pid=host --cgroupns=private --network=host --read-only \
	--cap-drop=all --cap-add=BPF,PERFMON,SYS_ADMIN,SYSLOG,SYS_PTRACE,DAC_READ_SEARCH,SETUID,SETGID,SETPCAP \
	--security-opt seccomp=unconfined \
	-v /etc/passwd:/etc/passwd:ro -v /etc/group:/etc/group:ro \
	-v /sys/fs/cgroup:/host/sys/fs/cgroup:ro \
	localhost/ucounttop:test --listen 127.0.0.1:9468 -d 1 > $T/run2.out 2> $T/run2.err
waitfor 600 serving
wget -q -O $T/m2 http://127.0.0.1:9468/metrics
# the container's main process in its own cgroup namespace, its reader
# (ucounttop-read) in the host's
host=$(readlink /proc/1/ns/cgroup)
main=$(pm inspect -f '{{.State.Pid}}' uct)
reader=
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2> /dev/null)" = ucounttop-read ] && reader=$(readlink $p/ns/cgroup)
done
before=$fails
expect "in a cgroup namespace of its own, the reader in the host's: $cname's container id still" \
	"$([ "$(readlink /proc/$main/ns/cgroup)" != "$host" ] && echo own) $([ "$reader" = "$host" ] && echo host) $(has_cid $T/m2)" \
	"own host 1"
[ $fails = $before ] || pm logs uct 2>&1 | sed 's/^/# /' | tail -n 5

echo "1..$n"
[ "$fails" -eq 0 ]
