#!/bin/bash
# The OpenMetrics and text 0.0.4 documents ucounttop renders, without a
# guest: the unit test test_views writes those of its fixtures (every
# family: tenant names, user names, --events counts, denials, memlock in
# bytes, the exporter's own) with UCT_METRICS_DOCS=DIR, and
# openmetrics-endpoint.sh reads them as it reads what 5C exported:
# prometheus_client's OpenMetrics and text parsers, the names of
# ucounttop(8), and `promtool check metrics` with no complaint at all.
# TAP (the endpoint script's, after one line for the build).
#
#   tests/host/openmetrics-host.sh
#
# test_views is built as tests/run.sh builds the unit tests (UCT_OUT,
# TOOL_VMLINUX); it loads nothing into the kernel.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$UCT_OUT/cli/tests/test_views
mkdir -p "$tmp/docs/listen"
if ! make -s -C "$UCT_ROOT/cli" "$bin" OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX" > "$tmp/build" 2>&1 ||
   ! UCT_METRICS_DOCS=$tmp/docs CMOCKA_MESSAGE_OUTPUT=TAP "$bin" > "$tmp/views" 2>&1; then
	echo "not ok 1 - test_views built and wrote the documents"
	sed 's/^/# /' "$tmp/build" "$tmp/views"
	echo "1..1"
	exit 1
fi
# the endpoint script numbers from 1: its lines follow, renumbered
{
	echo "ok 1 - test_views built and wrote the documents ($(grep -c '^ok' "$tmp/views") tests passed)"
	DOCS_FROM="test_views wrote" "$UCT_ROOT/tests/host/openmetrics-endpoint.sh" "$tmp/docs"
	echo "rc $?"
} | awk '
	/^rc [0-9]+$/ { rc = $2; next }
	/^(not )?ok [0-9]+ / { n++; sub(/ok [0-9]+ /, "ok " n " ") }
	/^1\.\.[0-9]+$/ { next }
	{ print }
	END { print "1.." n; exit rc }'
