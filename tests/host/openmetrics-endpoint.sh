#!/bin/bash
# What ucounttop --listen served inside the guest (guest/tests/5C), read by
# the parsers a Prometheus user has: Python prometheus_client's OpenMetrics
# parser and its text-format parser, and `promtool check metrics`. TAP.
#
#   tests/host/openmetrics-endpoint.sh [DIR]
#
# DIR is where `guest/run --export DIR` put what 5C exported
# (DIR/listen/*.txt): tests/run.sh passes its guest boot's. Without DIR,
# a guest boots to run 5C alone. (tests/host/openmetrics-host.sh gives
# it the documents the unit tests render, DOCS_FROM names them.) Two
# pairs of documents, each an OpenMetrics one and a text one: from one
# snapshot of a system with uct-workload's namespaces, refusals and
# --events counts, and from two scrapes of an idle one. Per pair:
#  - the OpenMetrics one parses as OpenMetrics 1.0.0 (a family's UNIT
#    must end its name), and its names are those of ucounttop(8):
#    every family of the naming guide's (metrics v2), none of the old
#    ones, a UNIT line for every family named with a unit, no counter
#    family named _total, no label with an empty value;
#  - the text one parses as text 0.0.4 with every family typed (a TYPE
#    line naming another metric leaves its samples "unknown");
#  - promtool check metrics finds nothing in the text one. It reads only
#    that format: what it says of the OpenMetrics one is printed, not
#    judged (it takes each counter's HELP, which names the family, for
#    missing);
# and the pair from one snapshot gives the same families, types, help and
# samples in both formats.
# Then each check is given a broken document, which it must refuse.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"

cat > "$tmp/check.py" <<'PYEOF'
"""check.py MODE FILE [FILE]: om FILE, names FILE, text FILE, same OMFILE TEXTFILE."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as text_parse


def families(parse, path):
    with open(path, encoding="utf-8") as f:
        return list(parse(f.read()))


def canon(fams):
    """name -> (type, help, sorted samples), families with samples only"""
    out = {}
    for f in fams:
        # text 0.0.4 has no info type: an info family X is the gauge X_info
        name, typ = (f.name + "_info", "gauge") if f.type == "info" else (f.name, f.type)
        if name in out:
            raise ValueError(f"family {name} twice")
        # the OpenMetrics parser keeps a counter's integer, the text one
        # makes every value a float
        samples = sorted((s.name, tuple(sorted(s.labels.items())), float(s.value))
                         for s in f.samples)
        if samples:
            out[name] = (typ, f.documentation, samples)
    return out


# the families every document has (ucounttop(8), OpenMetrics): the per-row
# and per-namespace gauges in their units, the counters, the row state, the
# exporter's own
REQUIRED = [
    "ucounttop_nproc_processes", "ucounttop_msgqueue_bytes", "ucounttop_sigpending_signals",
    "ucounttop_memlock_bytes", "ucounttop_nproc_limit_processes",
    "ucounttop_msgqueue_limit_bytes", "ucounttop_sigpending_limit_signals",
    "ucounttop_memlock_limit_bytes", "ucounttop_namespace_nproc_max_processes",
    "ucounttop_namespace_msgqueue_max_bytes", "ucounttop_namespace_sigpending_max_signals",
    "ucounttop_namespace_memlock_max_bytes",
]
REQUIRED += ["ucounttop_denials", "ucounttop_limit_hits", "ucounttop_row_over_limit",
             "ucounttop_row_imbalanced", "ucounttop_drops", "ucounttop_passwd_timeouts",
             "ucounttop_passwd_quarantined", "ucounttop_passwd_readers_stuck", "ucounttop_build",
             "ucounttop_degraded", "ucounttop_scrape_duration_seconds", "ucounttop_scrape_errors",
             "ucounttop_last_snapshot_timestamp_seconds"]
GONE = ["ucounttop_rlimit_value", "ucounttop_rlimit_limit", "ucounttop_namespace_rlimit_max",
        "ucounttop_row_flag"]
UNITS = ("bytes", "seconds", "processes", "signals")


def names(fams):
    """the names of ucounttop(8); raises ValueError naming what is wrong"""
    by = {f.name: f for f in fams}
    missing = [n for n in REQUIRED if n not in by]
    if missing:
        raise ValueError(f"families missing: {' '.join(missing)}")
    old = [n for n in GONE if n in by]
    if old:
        raise ValueError(f"old families: {' '.join(old)}")
    for f in fams:
        want = next((u for u in UNITS if f.name.endswith("_" + u)), "")
        if f.unit != want:
            raise ValueError(f"family {f.name}: unit '{f.unit}', want '{want}'")
        if f.type == "counter" and f.name.endswith("_total"):
            raise ValueError(f"counter family {f.name} named _total")
        for s in f.samples:
            empty = [k for k, v in s.labels.items() if v == ""]
            if empty:
                raise ValueError(f"{s.name}: empty label {' '.join(empty)}")
    return f"{len(REQUIRED)} families named as ucounttop(8) says, units and labels right"


def summary(fams):
    return f"{len(fams)} families, {sum(len(f.samples) for f in fams)} samples"


mode, path = sys.argv[1], sys.argv[2]
try:
    if mode == "om":
        print(summary(families(om_parse, path)))
    elif mode == "names":
        print(names(families(om_parse, path)))
    elif mode == "listed":
        # every series served is one contrib/metrics.txt lists, the names
        # the alerting rules and the dashboard are written against
        listed = {l.split()[0] for l in open(sys.argv[3])
                  if l.strip() and not l.startswith("#")}
        served = {s.name for f in families(om_parse, path) for s in f.samples}
        extra = sorted(served - listed)
        if extra:
            sys.exit(f"served but not in {sys.argv[3]}: {' '.join(extra)}")
        print(f"{len(served)} series names, all of them listed")
    elif mode == "text":
        fams = families(text_parse, path)
        untyped = sorted({f.name for f in fams if f.type not in ("gauge", "counter")})
        if untyped:
            sys.exit(f"families typed neither gauge nor counter: {' '.join(untyped)}")
        print(summary(fams))
    else:
        a = canon(families(om_parse, path))
        b = canon(families(text_parse, sys.argv[3]))
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                sys.exit(f"family {name}: OpenMetrics {str(a.get(name))[:300]}"
                         f" / text {str(b.get(name))[:300]}")
        print(f"{len(a)} families alike")
except Exception as e:  # the parsers raise ValueError and friends
    sys.exit(f"{type(e).__name__}: {e}")
PYEOF

# ---- the documents ----------------------------------------------------------
if [ $# -ge 1 ]; then
	dir=$1
else
	dir=$tmp/export
	stage test "openmetrics-endpoint: booting the guest for 5C" >&2
	"$UCT_ROOT/guest/run" -q --smp 2 --timeout 900 --results "$tmp/5c.tap" --export "$dir" \
		-- /uct/run-tests /uct/tests/5C-ucounttop-listen.sh > "$tmp/5c.out" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		ok "guest/tests/5C ran (its own results: $(grep -c '^ok' "$tmp/5c.tap") passed, $(grep -c '^not ok' "$tmp/5c.tap") failed)"
	else
		nok "guest/tests/5C ran (guest/run exit $rc)"
		diag < "$tmp/5c.out"
	fi
fi
pairs=(openmetrics-1.0.0.txt:text-0.0.4.txt openmetrics-1.0.0-idle.txt:text-0.0.4-idle.txt)
missing=
for p in "${pairs[@]}"; do
	for f in "${p%%:*}" "${p#*:}"; do
		[ -s "$dir/listen/$f" ] || missing="$missing $f"
	done
done
if [ -n "$missing" ]; then
	nok "the documents ${DOCS_FROM:-5C exported} are in $dir/listen (missing:$missing)"
	finish
fi
ok "the documents ${DOCS_FROM:-5C exported} are in $dir/listen"
need_python_module prometheus_client python3-prometheus-client
need_promtool

# promtool_clean FILE: promtool check metrics says nothing and exits 0
promtool_clean() {
	local out rc=0
	out=$("$PROMTOOL" check metrics < "$1" 2>&1) || rc=$?
	[ "$rc" = 0 ] && [ -z "$out" ] && { echo "no complaint"; return 0; }
	printf 'exit %s\n%s\n' "$rc" "$out"
	return 1
}

for p in "${pairs[@]}"; do
	om=$dir/listen/${p%%:*} text=$dir/listen/${p#*:}
	run "${om##*/} parses as OpenMetrics" "$PY" "$tmp/check.py" om "$om"
	run "${om##*/}: the names, units and labels of ucounttop(8)" \
		"$PY" "$tmp/check.py" names "$om"
	run "${om##*/}: every series name is in contrib/metrics.txt" \
		"$PY" "$tmp/check.py" listed "$om" "$UCT_ROOT/contrib/metrics.txt"
	run "${text##*/} parses as text 0.0.4, every family typed" "$PY" "$tmp/check.py" text "$text"
	run "promtool check metrics < ${text##*/}" promtool_clean "$text"
	rc=0
	"$PROMTOOL" check metrics < "$om" > "$tmp/om.promtool" 2>&1 || rc=$?
	echo "# promtool check metrics < ${om##*/} (it reads the text format): exit $rc," \
		"$(grep -c . "$tmp/om.promtool") lines, e.g.:"
	head -n 3 "$tmp/om.promtool" | diag
done

om=$dir/listen/openmetrics-1.0.0.txt text=$dir/listen/text-0.0.4.txt
run "${om##*/} and ${text##*/} (one snapshot): the same families and samples" \
	"$PY" "$tmp/check.py" same "$om" "$text"

# ---- each check refuses a broken document -----------------------------------
grep -v '^# EOF$' "$om" > "$tmp/no-eof"
refuses "the OpenMetrics parser refuses it without '# EOF'" "$PY" "$tmp/check.py" om "$tmp/no-eof"
sed '0,/^ucounttop_nproc_processes{/s/} [0-9+Inf]*$/} many/' "$om" > "$tmp/nan"
refuses "... with a value that is not a number" "$PY" "$tmp/check.py" om "$tmp/nan"
sed 's/^ucounttop_denials_total{/ucounttop_denials{/' "$om" > "$tmp/no-total"
refuses "... with counter samples not named _total" "$PY" "$tmp/check.py" om "$tmp/no-total"
# OpenMetrics 1.0: a family with a unit ends its name with it
sed 's/^# UNIT ucounttop_memlock_bytes bytes$/# UNIT ucounttop_memlock_bytes pages/' "$om" > "$tmp/unit"
refuses "... with a UNIT its family's name does not end in" "$PY" "$tmp/check.py" om "$tmp/unit"
grep -v '^# UNIT ucounttop_sigpending_signals ' "$om" > "$tmp/no-unit"
refuses "the names check refuses a family named with a unit but without its UNIT" \
	"$PY" "$tmp/check.py" names "$tmp/no-unit"
sed 's/^ucounttop_build_info{version="[^"]*"/ucounttop_build_info{version=""/' "$om" > "$tmp/empty"
refuses "... a label with an empty value" "$PY" "$tmp/check.py" names "$tmp/empty"
sed '/^# EOF$/i # TYPE ucounttop_row_flag gauge\nucounttop_row_flag{ns="1",flag="new"} 1' \
	"$om" > "$tmp/old"
refuses "... an old family" "$PY" "$tmp/check.py" names "$tmp/old"
sed 's/^# EOF$/# TYPE ucounttop_unlisted gauge\n# HELP ucounttop_unlisted not in the list\nucounttop_unlisted 1\n# EOF/' \
	"$om" > "$tmp/unlisted"
refuses "the list check refuses a family contrib/metrics.txt does not name" \
	"$PY" "$tmp/check.py" listed "$tmp/unlisted" "$UCT_ROOT/contrib/metrics.txt"
# the mistake the text format invites: OpenMetrics' TYPE and HELP lines
sed -E 's/^# (TYPE|HELP) (ucounttop_[a-z_]*)_total /# \1 \2 /' "$text" > "$tmp/om-types"
cmp -s "$text" "$tmp/om-types" && echo "# (the text document has no counter to break)"
refuses "the text parser finds untyped samples when TYPE names the family" \
	"$PY" "$tmp/check.py" text "$tmp/om-types"
refuses "... and they differ from the OpenMetrics document" \
	"$PY" "$tmp/check.py" same "$om" "$tmp/om-types"
refuses "promtool complains about them" promtool_clean "$tmp/om-types"
sed '0,/^ucounttop_nproc_processes{/s/} [0-9+Inf]*$/} many/' "$text" > "$tmp/nan-text"
refuses "promtool refuses a value that is not a number" promtool_clean "$tmp/nan-text"
refuses "... so does the text parser" "$PY" "$tmp/check.py" text "$tmp/nan-text"
awk '{ print } /^# TYPE ucounttop_nproc_limit_processes gauge$/ { print }' "$text" > "$tmp/type-twice"
refuses "promtool refuses a TYPE line given twice" promtool_clean "$tmp/type-twice"
finish
