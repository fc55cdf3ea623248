#!/bin/sh
# 5E: a denial is what the kernel refused, on every kernel. uct-refusals
# (see its header) drives every case in which an RLIMIT check finds a
# counter over its limit: root's forks over RLIMIT_NPROC 1 (admitted: root
# is let past), setresuid() onto a uid over its limit (admitted, only
# flagged), setresuid() then execve() (refused), and one request of each
# type over the limit by an unprivileged uid at the leaf and at a
# namespace level. It counts the refusals it got; ucounttop, attached
# before, must show exactly those on each row, and its header's totals
# must be their sums: a bypass counted as a refusal shows in both.
# In the default view and with --events, where the SIGPENDING charges and
# uncharges of each row must also be the kernel's: a refusal at the leaf
# is a charge the kernel takes back, one above it is undone inside the
# charge and is neither. SIGPENDING is refused to a signal and to a
# timer_create(), whose sigqueue is charged when the timer is made, with
# no signal to report it. A signal refused to a container's task is
# counted for that container, whoever sent it. A clone(CLONE_NEWUSER)
# refused over RLIMIT_NPROC checks the new namespace's row, which dies
# with it: the header counts it. A signal whose sigqueue the kernel
# failed to allocate (fail-nth) is no refusal: sig_nomem counts it. The
# default view again with kallsyms addresses hidden counts the same, and
# on our series' kernel so do the default view and --events with the
# series' refusal event refused (the stock kernels' path).
UCT=${UCT:-/uct/bin/ucounttop}
RF=${RF:-/uct/bin/uct-refusals}
T=/tmp/t5E
mkdir -p $T
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/json-rows.sh
# total FILE TYPE: the last document's header total (its first "denials"
# object; rows' containers have theirs later)
total() { tail -n 1 "$1" | grep -o '"denials":{"nproc":[^}]*}' | head -n 1 | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }

[ -x "$UCT" ] && [ -x "$RF" ] || { echo "# missing $UCT or $RF"; exit 4; }

docs() { grep -c ']}$' "$1" 2> /dev/null; }
wait_docs() { # wait_docs FILE N
	i=0
	while [ "$(docs "$1")" -lt "$2" ]; do
		i=$((i + 1)); [ $i -gt 600 ] && return 1; sleep 0.1
	done
}

mode() { # mode NAME [ucounttop options]
	name=$1; shift
	: > $T/$name.stream
	$UCT --json -d 0.3 "$@" > $T/$name.stream 2> $T/$name.err &
	u=$!
	if ! wait_docs $T/$name.stream 1; then
		fail "$name: ucounttop attached"; cat $T/$name.err; kill $u; return
	fi
	# uct-refusals holds its rows while its stdin is open
	rm -f $T/fifo; mkfifo $T/fifo
	$RF < $T/fifo > $T/$name.rf 2> $T/$name.rferr &
	w=$!
	exec 7> $T/fifo
	i=0
	while ! grep -q '^READY' $T/$name.rf && kill -0 $w 2> /dev/null && [ $i -lt 600 ]; do
		i=$((i + 1)); sleep 0.1
	done
	if ! grep -q '^READY' $T/$name.rf; then
		fail "$name: uct-refusals ran its cases"; cat $T/$name.rferr
		exec 7>&-; kill $u; wait; return
	fi
	have=$(docs $T/$name.stream)
	wait_docs $T/$name.stream $((have + 2)) || fail "$name: two snapshots after the cases"
	kill -INT $u; wait $u
	grep ']}$' $T/$name.stream | tail -n 1 > $T/$name.json
	exec 7>&-
	wait $w

	m=$(misses $T/$name.json)
	for type in nproc msgqueue sigpending memlock; do
		sum=0
		while read -r _ ns uid t want; do
			[ "$t" = "$type" ] || continue
			sum=$((sum + want))
			r=$(row $T/$name.json $ns $uid)
			got=$(field "$r" $type denials)
			# a row without statistics has no denials field: 0
			expect_counted "$name: $type denials of (ns $ns, uid $uid), as the kernel refused" \
				"${got:-0}" "$want" "$m"
		done < $(grep '^DENY' $T/$name.rf > $T/$name.deny; echo $T/$name.deny)
		# refusals of rows that died with the refused request count
		# in the totals only
		sum=$((sum + $(awk -v t=$type '$1 == "GONE" && $2 == t { s += $3 } END { print s + 0 }' $T/$name.rf)))
		got=$(total $T/$name.json $type)
		expect_counted "$name: header's $type denials, the sum of the refusals" "$got" "$sum" "$m"
	done
	# a refused signal is its target's: the container's share of the
	# target's row, the row's last refused task; the sender's cgroup
	# has none
	set -- $(grep '^TARGET' $T/$name.rf)
	r=$(row $T/$name.json $2 $3)
	expect "$name: a signal refused to a container's task, in the container's share" \
		"$(echo "$r" | sed -n 's/.*"containers":\[{"container_id":"\([0-9a-f]*\)","container_name":null,"container_owner_uid":null,"pod":null,"cgroup":"[^"]*","processes":[0-9]*,"denials":{"nproc":[0-9]*,"msgqueue":[0-9]*,"sigpending":\([0-9]*\).*"other":{"processes":[0-9]*,"denials":{"nproc":[0-9]*,"msgqueue":[0-9]*,"sigpending":\([0-9]*\).*/\1 \2 \3/p')" \
		"$4 1 0"
	expect "$name: the row's last refused task is the signal's target" \
		"$(echo "$r" | sed -n 's/.*"last_pid":\([0-9]*\).*/\1/p')" "$5"
	# a sigqueue the kernel failed to allocate, reported as a refusal
	# is: no denial (its DENY line says 0, and the totals above), counted
	# in sig_nomem
	set -- $(grep '^NOMEM' $T/$name.rf)
	if [ "$2" = unavailable ]; then
		skip "$name: failed sigqueue allocations counted in sig_nomem, not as denials" \
			"no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB)"
	else
		expect "$name: the kernel failed the 3 sigqueue allocations uct-refusals asked" "$4" 3
		got=$(grep -o '"sig_nomem":[0-9]*' $T/$name.json | cut -d: -f2)
		expect "$name: failed sigqueue allocations counted in sig_nomem, not as denials" \
			"${got:-missing}" "$4"
	fi
	case $name in *events) ;; *) return ;; esac
	grep '^SIGQ' $T/$name.rf > $T/$name.sigq
	while read -r _ ns uid ch un; do
		r=$(row $T/$name.json $ns $uid)
		got="$(field "$r" sigpending charges) $(field "$r" sigpending uncharges)"
		expect "$name: sigpending charges, uncharges of (ns $ns, uid $uid), the kernel's" \
			"$got" "$ch $un"
	done < $T/$name.sigq
	# each refused timer was decided: at the leaf, or above it
	got=$(grep -o '"sig_undecided":[0-9]*' $T/$name.json | cut -d: -f2)
	expect "$name: no refused timer_create() left undecided" "${got:-missing}" 0
}

mode default
mode events --events
# our series' kernel read as a stock one: refusals from the callers' checks
if [ -d /sys/kernel/tracing/events/ucounts/ucounts_rlimit_refused ]; then
	export UCOUNTTOP_TEST_REFUSE=tp_btf:ucounts_rlimit_refused
	mode stock
	mode stock-events --events
	unset UCOUNTTOP_TEST_REFUSE
fi
# kallsyms addresses hidden (as from a process without CAP_SYSLOG): no
# kernel address is needed to tell the callers' checks apart
kptr=$(cat /proc/sys/kernel/kptr_restrict)
echo 2 > /proc/sys/kernel/kptr_restrict
mode hidden
echo "$kptr" > /proc/sys/kernel/kptr_restrict
echo "1..$n"
[ "$fails" -eq 0 ]
