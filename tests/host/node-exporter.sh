#!/bin/bash
# The textfile route as ucounttop(8) gives it, with the real thing:
# Debian's prometheus-node-exporter (unpacked by guest/deps.sh, not
# installed), only its textfile collector on, reading the directory a
# guest wrote with `ucounttop --prometheus -n 1 -o DIR/ucounttop.prom`
# (exported to the host: guest/run --export). The guest runs a known
# workload, uct-workload --shared-uid: uid 9000 under RLIMIT_NPROC 5 in
# two containers, A with 3 processes and B with 2, B's sixth fork
# refused. node_exporter must serve the file without error, with every
# family of it and uid 9000's row; promtool must pass what it serves.
# The same file in OpenMetrics (--openmetrics), in a directory of its
# own, is what the textfile collector refuses: the reason --prometheus
# exists, checked so that a node_exporter that learns OpenMetrics is
# noticed. TAP. Bounded: the guest within BOOT_SECS, node_exporter's
# first answer within 60 s.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

BOOT_SECS=${BOOT_SECS:-600}
NODE_EXPORTER=${NODE_EXPORTER:-$CACHE_DIR/promtool/prometheus-node-exporter}
A=aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111
B=bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222
tmp=$(mktemp -d)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"
ne_pids=()
cleanup() {
	local p
	for p in "${ne_pids[@]}"; do
		kill "$p" 2> /dev/null && wait "$p" 2> /dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

if [ ! -x "$NODE_EXPORTER" ]; then
	nok "Debian's prometheus-node-exporter is unpacked at $NODE_EXPORTER (guest/deps.sh)"
	finish
fi

cat > "$tmp/guest.sh" << EOF
# as ucounttop(8) runs it beside node_exporter: a refresh every -d
# seconds; attached before the workload, whose refused fork it counts
ucounttop --prometheus -d 0.5 -o /tmp/ucounttop.prom 2> /tmp/u.err &
u=\$!
i=0
until [ -s /tmp/ucounttop.prom ]; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/u.err; exit 1; }
	usleep 100000
done
uct-workload --shared-uid 9000 5 docker:$A:3 containerd:$B:2 > /tmp/wl.out 2>&1 &
i=0
until grep -q '^ucounttop_denials_total{ns="[0-9]*",level="0",kuid="9000",type="nproc"} 1\$' \
	/tmp/ucounttop.prom; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/u.err /tmp/wl.out /tmp/ucounttop.prom; exit 1; }
	usleep 100000
done
kill \$u
wait \$u
mkdir -p \$UCT_EXPORT/text \$UCT_EXPORT/om
cp /tmp/ucounttop.prom \$UCT_EXPORT/text/
ucounttop --openmetrics -n 1 -o \$UCT_EXPORT/om/ucounttop.prom || exit 1
EOF
if ! timeout "$BOOT_SECS" "$UCT_ROOT/guest/run" -q --export "$tmp/export" -f "$tmp/guest.sh" \
	> "$tmp/run.out" 2>&1 || [ ! -s "$tmp/export/text/ucounttop.prom" ]; then
	nok "the guest writes the files with -o (--prometheus, --openmetrics)"
	tail -n 30 "$tmp/run.out" | diag
	finish
fi
ok "the guest writes the files with -o (--prometheus, --openmetrics)"

# serve DIR: node_exporter with its textfile collector alone on DIR, on
# a free port of the loopback ($port); its log in DIR.log
serve() {
	port=$(free_port)
	"$NODE_EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$1" > "$1.log" 2>&1 &
	ne_pids+=($!)
	for ((i = 0; i < 600; i++)); do
		curl -sf "http://127.0.0.1:$port/metrics" > "$1.metrics" 2> /dev/null && return 0
		sleep 0.1
	done
	return 1
}
# sample FILE NAME: the value of the sample NAME (with its labels) in FILE
sample() { awk -v n="$2 " 'index($0, n) == 1 { print $NF }' "$1"; }
# families FILE [PREFIX]: the names of FILE's samples (with PREFIX), sorted
families() { grep -v '^#' "$1" | sed 's/[{ ].*//' | grep "^${2:-}" | sort -u; }

if serve "$tmp/export/text"; then
	m=$tmp/export/text.metrics
	expect "node_exporter reads --prometheus's file without error" \
		"$(sample "$m" node_textfile_scrape_error)" 0
	expect "... and serves uid 9000's row: 5 processes, 1 refusal" \
		"$(sample "$m" 'ucounttop_nproc_processes{kuid="9000",level="0",ns="4026531837"}') $(sample "$m" 'ucounttop_denials_total{kuid="9000",level="0",ns="4026531837",type="nproc"}')" \
		"5 1"
	# every family with a sample in the file, none lost on the way
	families "$tmp/export/text/ucounttop.prom" > "$tmp/want.families"
	families "$m" ucounttop_ > "$tmp/got.families"
	expect "... every family of the file ($(wc -l < "$tmp/want.families") with samples)" \
		"$(diff "$tmp/want.families" "$tmp/got.families" && echo same)" same
	need_promtool
	"$PROMTOOL" check metrics < "$m" > "$tmp/lint" 2>&1
	expect "promtool check metrics passes what node_exporter serves" \
		"$(grep -c . "$tmp/lint")" 0
	[ -s "$tmp/lint" ] && head -n 5 "$tmp/lint" | diag
else
	nok "node_exporter answers on its textfile directory"
	diag < "$tmp/export/text.log"
fi

if serve "$tmp/export/om"; then
	expect "the OpenMetrics file is refused by node_exporter (the reason for --prometheus)" \
		"$(sample "$tmp/export/om.metrics" node_textfile_scrape_error) $(grep -c '^ucounttop_' "$tmp/export/om.metrics")" \
		"1 0"
else
	nok "node_exporter answers on the OpenMetrics file's directory"
fi
finish
