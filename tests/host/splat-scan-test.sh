#!/bin/bash
# Tests of tests/host/splat-scan.sh on made-up console logs: each report
# type is found and named, one report that prints several titles counts
# once, test output that merely mentions BUG or WARNING is not a report,
# and a clean log passes. TAP.
set -uo pipefail
scan=$(dirname "$0")/splat-scan.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fails=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }

# A clean boot-and-test log: the debug options' own banners, test output
# that talks about bugs, and backtrace-looking test text.
clean() {
	cat <<'EOF'
[    0.000000] Linux version 6.1.0 (ucounttop@guest) #1 SMP PREEMPT
[    0.010000] kasan: KernelAddressSanitizer initialized (generic)
[    0.020000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.020001] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.300000] kmemleak: Kernel memory leak detector initialized (mem pool available: 39000)
=== 10-rlimits-selftests
ok 1 rlimits-per-userns
# WARNING: this test output mentions BUG: and KASAN and Call Trace: but is not the kernel's
not ok 2 UBSAN in a test name
=== kmemleak
uct-debug: kmemleak scanned twice, 0 suspected leaks
uct-debug: done
EOF
}

# expect NAME FILE EXPECTED_RC ERE...: run the scanner, check its exit
# status and that each ERE matches a line of its output
expect() {
	local name=$1 file=$2 want=$3 out rc=0 re
	shift 3
	out=$("$scan" "$file" 7) || rc=$?
	if [ "$rc" != "$want" ]; then
		nok "$name (exit $rc, wanted $want)"
		printf '%s\n' "$out" | sed 's/^/# /'
		return
	fi
	for re; do
		if ! grep -qE -- "$re" <<< "$out"; then
			nok "$name (no line matching '$re')"
			printf '%s\n' "$out" | sed 's/^/# /'
			return
		fi
	done
	ok "$name"
}

clean > "$tmp/clean"
expect "clean log: one ok 'no splats', numbered from the given start" "$tmp/clean" 0 \
	'^ok 7 no splats: .* in 5 kernel console lines$'

# One report of each type, each appended to the clean log.
report() { # report TYPE: the made-up kernel lines of one report of TYPE
	case "$1" in
	kasan) printf '%s\n' '[   12.000001] ==================================================================' \
		'[   12.000002] BUG: KASAN: slab-use-after-free in put_ucounts+0x10/0x20' \
		'[   12.000003] Read of size 4 at addr ffff888004000000 by task sh/77' \
		'[   12.000004] Call Trace:' ;;
	ubsan) printf '%s\n' '[   12.000001] UBSAN: shift-out-of-bounds in kernel/ucount.c:42:7' ;;
	lockdep) printf '%s\n' '[   12.000001] WARNING: possible circular locking dependency detected' \
		'[   12.000002] 6.1.0 #1 Not tainted' ;;
	rcu) printf '%s\n' '[   12.000001] WARNING: suspicious RCU usage' ;;
	atomic-sleep) printf '%s\n' '[   12.000001] BUG: sleeping function called from invalid context at mm/slab.h:700' ;;
	debugobjects) printf '%s\n' '[   12.000001] ------------[ cut here ]------------' \
		'[   12.000002] WARNING: CPU: 1 PID: 9 at lib/debugobjects.c:505 debug_print_object+0x1/0x2' \
		'[   12.000003] ODEBUG: free active (active state 0) object type: work_struct hint: free_user_ns+0x0/0x1' ;;
	list) printf '%s\n' '[   12.000001] WARNING: CPU: 0 PID: 1 at lib/list_debug.c:30 __list_add_valid+0x1/0x2' \
		'[   12.000002] list_add corruption. prev->next should be next (ffff888000000000)' ;;
	kmemleak) printf '%s\n' 'uct-kmemleak: unreferenced object 0xffff888004000000 (size 192):' \
		'uct-kmemleak:   comm "sh", pid 80, jiffies 4294900000 (age 20.000s)' \
		'uct-kmemleak:   backtrace:' \
		'uct-kmemleak:     [<ffffffff81000000>] alloc_ucounts+0x1/0x2' ;;
	oops) printf '%s\n' '[   12.000001] general protection fault, probably for non-canonical address 0xdead000000000100' ;;
	hung-task) printf '%s\n' '[   12.000001] INFO: task sh:80 blocked for more than 120 seconds.' ;;
	bug) printf '%s\n' '[   12.000001] BUG: Bad rss-counter state mm:ffff888000000000 type:MM_ANONPAGES val:1' ;;
	warning) printf '%s\n' '[   12.000001] WARNING: CPU: 0 PID: 1 at kernel/ucount.c:300 dec_ucount+0x1/0x2' ;;
	call-trace) printf '%s\n' '[   12.000001] CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0 #1' '[   12.000002] Call Trace:' ;;
	esac
}
for t in kasan ubsan lockdep rcu atomic-sleep debugobjects list kmemleak oops hung-task bug warning call-trace; do
	{ clean; report "$t"; } > "$tmp/$t"
	expect "a $t report: exactly one not ok, for $t, with the report" "$tmp/$t" 1 \
		"^not ok 7 no $t reports # 1 found\$" '^# --- '"$t"' report 1 of 1:$'
	if [ "$("$scan" "$tmp/$t" 7 | grep -c '^not ok')" != 1 ]; then
		nok "a $t report is counted once, as one type"
		"$scan" "$tmp/$t" 7 | sed 's/^/# /'
	fi
done

# A kernel line that starts mid-line (a process wrote half a line first)
{ clean; printf '%s\n' 'some test outp[   13.000001] UBSAN: array-index-out-of-bounds in x.c:1:2'; } > "$tmp/mid"
expect "a report that starts mid-line is found" "$tmp/mid" 1 '^not ok 7 no ubsan reports # 1 found$'

# Two types and two reports of one type, CRLF line ends as from QEMU
{ clean; report kasan; report ubsan; report kasan; report kmemleak; report kmemleak; } |
	sed 's/$/\r/' > "$tmp/many"
expect "several reports: one not ok per type, numbered on, counts right" "$tmp/many" 1 \
	'^not ok 7 no kasan reports # 2 found$' '^not ok 8 no ubsan reports # 1 found$' \
	'^not ok 9 no kmemleak reports # 2 found$'

# kmemleak off: its silence would mean nothing
{ clean; echo 'uct-debug: kmemleak unavailable: sh: write error: Operation not permitted'; } > "$tmp/kmloff"
expect "kmemleak unavailable fails the scan" "$tmp/kmloff" 1 '^not ok 7 no kmemleak reports'

expect "a missing log fails" "$tmp/nonexistent" 1 '^not ok 7 '

echo "1..$n"
[ "$fails" -eq 0 ]
