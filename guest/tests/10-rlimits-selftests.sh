#!/bin/sh
# The rlimits kselftests, as one TAP stream numbered across both programs:
# - rlimits-per-userns (upstream, RLIMIT_NPROC only) prints no TAP: one
#   result from its exit status;
# - rlimits_userns_test (patch 8, kselftest harness): one result per
#   harness test case, its diagnostics relayed as comments.
# Exit status: 0 if nothing failed, 1 otherwise.
dir=/uct/selftests/rlimits
log=/tmp/rlimits-selftests.$$.log
limit=${RLIMITS_SELFTEST_TIMEOUT:-300}
n=0
failed=0

result() { # result pass|fail NAME [COMMENT]
	n=$((n + 1))
	if [ "$1" = pass ]; then
		echo "ok $n $2"
	else
		failed=1
		echo "not ok $n $2${3:+ # $3}"
	fi
}

# Whatever a program printed, as TAP comments.
comments() {
	sed 's/^/# /' "$log"
}

# upstream's test: pass/fail by exit status
prog=rlimits-per-userns
if [ -x "$dir/$prog" ]; then
	timeout "$limit" "$dir/$prog" > "$log" 2>&1
	rc=$?
	comments
	if [ "$rc" -eq 0 ]; then
		result pass "$prog"
	else
		result fail "$prog" "exit status $rc"
	fi
else
	result fail "$prog" "$dir/$prog missing"
fi

# the harness test: relay its results, renumbered
prog=rlimits_userns_test
if [ -x "$dir/$prog" ]; then
	timeout "$limit" "$dir/$prog" > "$log" 2>&1
	rc=$?
	seen=0
	bad=0
	while IFS= read -r line; do
		case "$line" in
		"ok "[0-9]*)
			rest=${line#ok }
			n=$((n + 1))
			seen=$((seen + 1))
			echo "ok $n ${rest#* }"
			;;
		"not ok "[0-9]*)
			rest=${line#not ok }
			n=$((n + 1))
			seen=$((seen + 1))
			bad=1
			failed=1
			echo "not ok $n ${rest#* }"
			;;
		"TAP version"* | "1.."*)
			;;
		"#"*)
			echo "$line"
			;;
		*)
			echo "# $line"
			;;
		esac
	done < "$log"
	# A crash, a timeout or a wrong plan must not pass quietly.
	if [ "$seen" -eq 0 ]; then
		result fail "$prog" "no results (exit status $rc)"
	elif [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		result fail "$prog" "exit status $rc after $seen results, none failed"
	fi
else
	result fail "$prog" "$dir/$prog missing"
fi

rm -f "$log"
echo "1..$n"
exit "$failed"
