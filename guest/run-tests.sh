#!/bin/sh
# In-guest test runner: runs /uct/tests/*.sh (or the tests named as
# arguments) in name order and writes one TAP stream to /dev/uct-results,
# where the host counts it. Each test's own unindented "ok N name" /
# "not ok N name" lines become results named "<test>: <name>"; a test that
# prints none counts once by its exit status (0 pass, 4 skip, other fail).
# A test that reports results but exits with an unexpected status adds a
# failure: a crash after the last "ok" must not pass.
out=/dev/uct-results
[ -e "$out" ] || out=/dev/stdout
per_test_timeout=${UCT_TEST_TIMEOUT:-600}
# a system call missing from a seccomp allowlist kills the process here
# instead of failing with ENOSYS: a test finds it (seccomp.h)
export UCT_SECCOMP_STRICT=1

if [ $# -gt 0 ]; then
	tests="$*"
else
	tests=$(ls /uct/tests/*.sh 2>/dev/null)
fi

n=0
# Each result also goes to the console as "uct-result: LINE": guest/run
# reads them from there if the results port delivered nothing.
emit() { # emit pass|fail|skip NAME [DETAIL]
	n=$((n + 1))
	case "$1" in
	pass) line="ok $n $2" ;;
	skip) line="ok $n $2 # SKIP ${3:-}" ;;
	*) line="not ok $n $2${3:+ # $3}" ;;
	esac
	echo "$line" >> "$out"
	[ "$out" = /dev/stdout ] || echo "uct-result: $line"
}

for t in $tests; do
	name=$(basename "$t" .sh)
	log=/tmp/test-$name.log
	echo "=== $name"
	t0=$(date +%s)
	(cd /tmp && timeout "$per_test_timeout" sh "$t") > "$log" 2>&1
	rc=$?
	cat "$log"
	# the time it took, for whoever budgets the suite (never asserted)
	echo "=== $name: exit $rc ($(($(date +%s) - t0)) s)"
	results=$(grep -E '^(not )?ok [0-9]+' "$log")
	if [ -z "$results" ]; then
		case "$rc" in
		0) emit pass "$name" ;;
		# the reason: a "1..0 # SKIP why" plan's, else the test's
		# last "# " line, which says what of this kernel makes it
		# meaningless
		4) why=$(sed -n 's/^1\.\.0 # [Ss][Kk][Ii][Pp] *//p' "$log" | tail -n 1)
		   emit skip "$name" "${why:-$(sed -n 's/^# //p' "$log" | tail -n 1)}" ;;
		143|124) emit fail "$name" "timed out after ${per_test_timeout}s" ;;
		*) emit fail "$name" "exit $rc" ;;
		esac
		continue
	fi
	echo "$results" | while IFS= read -r line; do
		# "ok 3 case # SKIP why" / "not ok 4 case"
		case "$line" in
		not*) verdict=fail; rest=${line#not ok } ;;
		*) verdict=pass; rest=${line#ok } ;;
		esac
		rest=${rest#* }
		case "$rest" in
		*'# SKIP'*|*'# skip'*) verdict=skip ;;
		esac
		echo "$verdict $name: $rest"
	done > /tmp/test-$name.res
	while read -r verdict rest; do
		case "$verdict" in
		skip) emit skip "${rest%%#*}" "${rest#*# [Ss][Kk][Ii][Pp]}" ;;
		*) emit "$verdict" "$rest" ;;
		esac
	done < /tmp/test-$name.res
	case "$rc" in
	0|4) ;;
	*) grep -q '^fail' /tmp/test-$name.res || emit fail "$name" "exited $rc after reporting only passes" ;;
	esac
done
echo "1..$n" >> "$out"
