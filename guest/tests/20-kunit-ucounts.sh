#!/bin/sh
# The "ucounts" KUnit suite (CONFIG_UCOUNTS_KUNIT_TEST=y, patch 0004) runs
# at boot. Relay its result for every test case as one unindented KTAP
# line, with the suite's diagnostics as comments. Source: debugfs
# (/sys/kernel/debug/kunit/ucounts/results), or the kernel log when
# debugfs lacks some case results: in 6.1 a case's debugfs log is a
# 512-byte buffer, and a case with many failed expectations fills it
# before its own "not ok" line.
suite=ucounts
res=/sys/kernel/debug/kunit/$suite/results
ktap=/tmp/kunit-$suite.ktap
cases=/tmp/kunit-$suite.cases

# load SOURCE: the suite's KTAP from SOURCE into $ktap and its case lines
# (first level of indentation below the suite) into $cases
load() {
	if [ "$1" = debugfs ]; then
		cat "$res" > "$ktap" 2> /dev/null
	else
		# strip printk timestamps, keep the suite's own subtest block
		dmesg | sed 's/^\[[^]]*\] //' |
			sed -n "/^    # Subtest: $suite\$/,/^\(not \)*ok [0-9]* $suite\$/p" > "$ktap"
	fi
	plan=$(sed -n 's/^    1\.\.\([0-9][0-9]*\)$/\1/p' "$ktap" | head -n 1)
	grep -E '^    (not )?ok [0-9]+ ' "$ktap" | sed 's/^    //' > "$cases"
	got=$(wc -l < "$cases")
	src=$1
	[ -n "$plan" ] && [ "$got" -eq "$plan" ]
}

echo "KTAP version 1"
load debugfs || load "kernel log"
echo "# ucounts KUnit results from the $src"
if [ -z "$plan" ] || [ "$got" -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 kunit suite '$suite' ran (no results; CONFIG_UCOUNTS_KUNIT_TEST=y?)"
	exit 1
fi
if [ "$got" -eq "$plan" ]; then
	echo "1..$plan"
else
	echo "1..$((got + 1))"
fi
# Diagnostics (failed expectations) first, as comments.
grep -E '^    +# ' "$ktap" | grep -v '# Subtest:' | sed 's/^ *//'
cat "$cases"
if [ "$got" -ne "$plan" ]; then
	echo "not ok $((got + 1)) kunit suite '$suite' reported $got of its $plan cases"
fi
! grep -q '^not ok' "$cases" && [ "$got" -eq "$plan" ]
