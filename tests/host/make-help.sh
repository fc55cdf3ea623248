#!/bin/bash
# `make help` runs (it is shell, and a quote in it can break it) and names
# every target the Makefile declares .PHONY. Builds nothing. TAP.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd -P)
out=$(make -s -C "$root" help 2>&1)
rc=$?
n=1
if [ "$rc" = 0 ]; then
	echo "ok $n make help exits 0"
else
	echo "not ok $n make help exits 0 (got $rc)"
	echo "$out" | sed 's/^/# /'
fi
for t in $(sed -n 's/^\.PHONY: *//p' "$root/Makefile"); do
	[ "$t" = help ] && continue
	n=$((n + 1))
	if grep -qE "^make $t( |$)" <<< "$out"; then
		echo "ok $n make help names 'make $t'"
	else
		echo "not ok $n make help names 'make $t'"
	fi
done
echo "1..$n"
