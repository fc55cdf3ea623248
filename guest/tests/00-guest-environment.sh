#!/bin/sh
# The guest provides what everything else relies on: BTF, traceable ucounts
# functions, user namespaces, BPF tracing programs, and the IPC the rlimits
# are charged by. KTAP.
n=0
t() { # t NAME CMD...
	n=$((n + 1))
	name=$1
	shift
	if "$@" > /tmp/env.out 2>&1; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		sed 's/^/# /' /tmp/env.out
	fi
}
echo "KTAP version 1"
echo "1..9"
t "kernel BTF at /sys/kernel/btf/vmlinux" test -s /sys/kernel/btf/vmlinux
# The series makes inc_rlimit_ucounts() an inline wrapper of
# inc_rlimit_ucounts_over(): either is the charge function hooked
t "inc_rlimit_ucounts or inc_rlimit_ucounts_over is traceable (fentry/fexit target)" \
	grep -qxE 'inc_rlimit_ucounts(_over)?' /sys/kernel/tracing/available_filter_functions
for f in dec_rlimit_ucounts inc_rlimit_get_ucounts dec_rlimit_put_ucounts; do
	t "$f is traceable (fentry/fexit target)" \
		grep -qx "$f" /sys/kernel/tracing/available_filter_functions
done
t "unprivileged-style user namespace: unshare -U" unshare -U true
t "bpftool: tracing programs are supported" \
	sh -c 'bpftool feature probe kernel | grep -q "program_type tracing is available"'
t "POSIX mqueue filesystem mounted" grep -q ' /dev/mqueue mqueue ' /proc/mounts
t "SysV IPC present" test -e /proc/sysvipc/shm
