#!/bin/bash
# splat-scan.sh CONSOLE [FIRST]: scan a guest's console log for kernel
# reports ("splats") and print TAP, numbered from FIRST (default 1):
# one "not ok" per report type found, with its reports as comments, or a
# single "ok ... no splats" when there is none. Exit 1 when any was found.
#
# Only kernel lines are read: those with a printk timestamp ("[   1.234567]
# ", CONFIG_PRINTK_TIME), wherever it starts on the line (a process writing
# to the console can leave half a line before it), plus the kmemleak
# report that guest/debug-tests.sh copies to the console with an
# "uct-kmemleak: " tag. Test output (which may well say "BUG" or
# "WARNING") is not kernel output and is not read.
#
# A report starts at a title line; the types and their titles, first match
# wins (order matters: "WARNING: possible circular locking dependency" is
# lockdep, not a generic warning):
#   kasan         KASAN
#   ubsan         UBSAN
#   lockdep       the lockdep report titles (circular/recursive locking,
#                 inconsistent lock state, irq lock inversion, bad unlock
#                 balance, held lock freed or left at exit/return to user,
#                 non-static key, lockdep table overflows, validator off)
#   rcu           suspicious RCU usage, RCU stalls
#   atomic-sleep  sleeping in atomic context, scheduling while atomic,
#                 smp_processor_id()/this_cpu in preemptible code
#   debugobjects  ODEBUG:
#   list          list/hlist corruption (CONFIG_DEBUG_LIST)
#   kmemleak      "kmemleak: N new suspected memory leaks", an
#                 "unreferenced object" in the scan's report, or kmemleak
#                 having turned itself off (its results would be void)
#   oops          Oops, general protection fault, kernel BUG at, panic
#   hung-task     INFO: task ... blocked for more than
#   bug           any other "BUG:"
#   warning       any other "WARNING:" (WARN_ON and friends)
#   call-trace    a "Call Trace:" more than 300 kernel lines after the
#                 last titled report (a backtrace nothing above explains)
# A generic title (warning, bug) within 3 lines of another title is part
# of that report, of the specific type: WARN() prints "WARNING: CPU: ..."
# before its message ("ODEBUG: ...", "list_add corruption ...").
set -uo pipefail

console=${1:?usage: splat-scan.sh CONSOLE [FIRST]}
first=${2:-1}
[ -r "$console" ] || { echo "not ok $first console log $console readable"; exit 1; }

tr -d '\r' < "$console" | awk -v n="$first" -v path="$console" '
BEGIN {
	nt = 0
	T[++nt] = "kasan";        R[nt] = "KASAN"
	T[++nt] = "ubsan";        R[nt] = "UBSAN"
	T[++nt] = "lockdep";      R[nt] = "possible circular locking dependency|possible recursive locking|inconsistent lock state|irq lock inversion|bad unlock balance|held lock freed|lock held when returning to user space|lock held at task exit|still has locks held|Nested lock was not taken|trying to register non-static key|BUG: MAX_LOCKDEP|BUG: MAX_STACK_TRACE|BUG: looking up invalid subclass|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|lockdep bfs error"
	T[++nt] = "rcu";          R[nt] = "suspicious RCU usage|RCU used illegally|detected stalls? on CPU|self-detected stall|rcu_.*detected expedited stalls"
	T[++nt] = "atomic-sleep"; R[nt] = "BUG: sleeping function called from invalid context|BUG: scheduling while atomic|BUG: using .* in preemptible|BUG: workqueue leaked|BUG: .*leaked lock or atomic"
	T[++nt] = "debugobjects"; R[nt] = "ODEBUG:"
	T[++nt] = "list";         R[nt] = "list_(add|del) corruption|list_add double add|hlist_.* corruption"
	T[++nt] = "kmemleak";     R[nt] = "^kmemleak: [0-9]+ new suspected memory leak|^uct-kmemleak: unreferenced object|^kmemleak: .*(disabled|[Pp]ool empty|[Cc]annot allocate|[Ee]rror)|^uct-debug: kmemleak unavailable"
	T[++nt] = "oops";         R[nt] = "Oops|general protection fault|kernel BUG at|Kernel panic|Unable to handle kernel"
	T[++nt] = "hung-task";    R[nt] = "INFO: task .* blocked for more than"
	T[++nt] = "bug";          R[nt] = "BUG:"
	T[++nt] = "warning";      R[nt] = "WARNING:"
	generic["bug"] = 1; generic["warning"] = 1
	nk = 0; nr = 0; last_start = -100000
}
{
	line = $0
	if (match(line, /\[ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\] /)) {
		# the kernel text: after the last timestamp on the line
		while (match(line, /\[ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\] /))
			line = substr(line, RSTART + RLENGTH)
	} else if (line ~ /^uct-(kmemleak|debug): /) {
		# tagged lines from guest/debug-tests.sh: only these count
		if (line ~ /^uct-debug: / && line !~ /kmemleak unavailable/)
			next
	} else
		next
	K[++nk] = line
	type = ""
	for (i = 1; i <= nt; i++)
		if (line ~ R[i]) { type = T[i]; break }
	if (type == "" && line ~ /Call Trace:/ && nk - last_start > 300)
		type = "call-trace"
	if (type == "")
		next
	# a generic title next to another title is part of that report
	prev = (nr > 0 && nk - last_start <= 3) ? RY[nr] : ""
	if (prev != "" && ((prev in generic) || (type in generic))) {
		if (prev in generic)
			RY[nr] = type
		next
	}
	nr++; RY[nr] = type; RB[nr] = nk; last_start = nk
}
END {
	for (i = 1; i <= nr; i++) {
		t = RY[i]
		count[t]++
		if (!(t in seen)) { seen[t] = 1; order[++no] = t }
	}
	if (nr == 0) {
		printf "ok %d no splats: no kernel report of any type (kasan ubsan lockdep rcu atomic-sleep debugobjects list kmemleak oops hung-task bug warning call-trace) in %d kernel console lines\n", n, nk
		exit 0
	}
	for (o = 1; o <= no; o++) {
		t = order[o]
		printf "not ok %d no %s reports # %d found\n", n++, t, count[t]
		shown = 0
		for (i = 1; i <= nr; i++) {
			if (RY[i] != t) continue
			if (++shown > 3) { printf "# ... %d more %s reports\n", count[t] - 3, t; break }
			end = (i < nr) ? RB[i + 1] - 1 : nk
			if (end - RB[i] > 80) end = RB[i] + 80
			# kmemleak: the object and its backtrace up to the next one
			printf "# --- %s report %d of %d:\n", t, shown, count[t]
			for (k = RB[i]; k <= end; k++) printf "#   %s\n", K[k]
		}
	}
	printf "# full console log: %s\n", path
	exit 1
}'
