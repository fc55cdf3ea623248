#!/bin/bash
# contrib/: the Prometheus rules and the Grafana dashboard a platform team
# installs, on made-up data only (no ucounttop runs). TAP.
#
#  - promtool check rules (lint fatal) and promtool test rules on
#    contrib/prometheus (the unit tests give every alert a case that
#    fires, with its exact labels and annotations, and one that does not:
#    checked here too), every alert with a for:, a severity, a summary
#    and description, and a runbook_url to its section of docs/runbook.md;
#  - the dashboard is JSON Grafana imports: one data source variable that
#    every panel and query uses, unique panel ids, panels within the
#    24-column grid and not overlapping, no variable used that is not
#    defined; and each of its queries is PromQL (promtool parses them,
#    made into recording rules, with the variables replaced);
#  - the rules and the dashboard name no metric but those of
#    contrib/metrics.txt (the rules may also use what they record), give
#    rate() and increase() counters only and use counters only there.
#
# contrib/metrics.txt is the one list of names (metrics v2, issue 25),
# kept in the tree because the specification is not: with
# UCT_METRICS_SPEC=path/to/metrics-spec.md its names (those of its
# tables) must be exactly the list's; its parser runs on a table made
# from the list either way. What --listen serves is held to the list by
# tests/host/openmetrics-endpoint.sh.
# Then each check is given a broken copy, which it must refuse.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

contrib=$UCT_ROOT/contrib
rules=$contrib/prometheus/ucounttop.rules.yml
rtests=$contrib/prometheus/ucounttop.rules.test.yml
dash=$contrib/grafana/ucounttop.json
list=$contrib/metrics.txt
runbook=$UCT_ROOT/docs/runbook.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"

# (shellcheck: these are called through run and refuses)
# shellcheck disable=SC2317
# chk MODE ARGS: check.py, below
chk() { "$PY" "$tmp/check.py" "$@"; }
# shellcheck disable=SC2317
is_json() { "$PY" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }

# shellcheck disable=SC2317
# promtool_rules FILE: promtool check rules, duplicate rules fatal
promtool_rules() { "$PROMTOOL" check rules --lint=all --lint-fatal "$1"; }
# shellcheck disable=SC2317
# promtool_test DIR: promtool test rules on DIR's copy of the test file,
# which loads the rules beside it
promtool_test() { (cd "$1" && "$PROMTOOL" test rules "${rtests##*/}"); }

need_python_module yaml python3-yaml
need_promtool

cat > "$tmp/check.py" <<'PYEOF'
"""check.py MODE ARGS: the checks promtool does not make.

  alerts RULES TESTS RUNBOOK
                        every alert: for, severity, summary, description,
                        a runbook_url whose anchor is a section of
                        RUNBOOK (## AlertName), a test case that fires and
                        one that does not
  names LIST FILE...    metric names of the expressions of rule files
                        (.yml) and dashboards (.json): in LIST, or
                        recorded by a rule file given; counters in rate()
                        and increase() and only there
  dashboard FILE OUT    the dashboard's structure; its queries, variables
                        replaced, as recording rules into OUT (for promtool)
  spec SPEC LIST        the names of SPEC's tables are exactly LIST's
  kube MANIFEST TEST SCRAPE STATIC
                        the DaemonSet runs the image as guest test TEST
                        runs it (hostPID, the same capabilities, no
                        seccomp profile, the host's passwd, group and
                        cgroup hierarchy); the scrape job is TLS with
                        basic auth; STATIC gets it with static targets
                        for promtool, whose Debian build has no
                        Kubernetes discovery
"""
import json
import re
import sys

import yaml

# a PromQL name (recording rules have colons), outside string literals
NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
RANGE_FNS = ("rate", "irate", "increase")
SEVERITIES = ("warning", "critical")


def fail(msgs):
    if msgs:
        sys.exit("\n".join(msgs))


def read_list(path):
    """name -> type, from metrics.txt"""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                out[w[0]] = w[1]
    return out


def rule_exprs(path):
    """(where, expr) of a rule file; and the names it records"""
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    exprs, recorded = [], set()
    for g in doc["groups"]:
        for r in g["rules"]:
            name = r.get("record") or r.get("alert")
            exprs.append((f"{path}: {name}", str(r["expr"])))
            if "record" in r:
                recorded.add(r["record"])
    return exprs, recorded


def label_values_selector(q):
    """label_values(SELECTOR, label) -> SELECTOR; label_values(label) -> None"""
    m = re.fullmatch(r"\s*label_values\((.*),\s*[A-Za-z_][A-Za-z0-9_]*\s*\)\s*", q, re.S)
    return m.group(1) if m else None


def dashboard_exprs(dash):
    """(where, expr) of every query of a dashboard: targets and variables"""
    out = []
    for p in panels(dash):
        for t in p.get("targets", []):
            if "expr" in t:
                out.append((f"panel {p.get('id')} {p.get('title')!r} {t.get('refId')}", t["expr"]))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") != "query":
            continue
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else q or ""
        for src in (q, v.get("definition", "")):
            sel = label_values_selector(src)
            if sel is None:
                sys.exit(f"variable {v.get('name')}: not label_values(SELECTOR, label): {src!r}")
            out.append((f"variable {v['name']}", sel))
    return out


def panels(dash):
    for p in dash.get("panels", []):
        yield p
        yield from p.get("panels", [])     # a collapsed row's


def names_in(expr):
    """(name, text before it) for each name in expr that names ucounttop"""
    text = STRING.sub('""', expr)
    for m in NAME.finditer(text):
        if "ucounttop" in m.group(0):
            yield m.group(0), text[:m.start()]


def check_names(list_path, files):
    known = read_list(list_path)
    exprs, recorded = [], set()
    for path in files:
        if path.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                exprs += dashboard_exprs(json.load(f))
        else:
            e, r = rule_exprs(path)
            exprs += e
            recorded |= r
    errs, seen = [], set()
    for where, expr in exprs:
        for name, before in names_in(expr):
            seen.add(name)
            if name not in known and name not in recorded:
                errs.append(f"{where}: {name} is not in {list_path}")
                continue
            in_range_fn = re.search(r"\b(%s)\s*\(\s*$" % "|".join(RANGE_FNS), before)
            counter = known.get(name) == "counter"
            if counter and not in_range_fn:
                errs.append(f"{where}: counter {name} outside rate()/increase()")
            elif in_range_fn and not counter:
                errs.append(f"{where}: {in_range_fn.group(1)}() of {name}, which is not a counter")
    fail(errs)
    print(f"{len(exprs)} expressions, {len(seen)} names, all known")


def check_alerts(rules_path, tests_path, runbook_path):
    with open(rules_path, encoding="utf-8") as f:
        rules = yaml.safe_load(f)
    with open(tests_path, encoding="utf-8") as f:
        tests = yaml.safe_load(f)
    with open(runbook_path, encoding="utf-8") as f:
        sections = {line[3:].strip().lower() for line in f if line.startswith("## ")}
    errs, alerts = [], []
    for g in rules["groups"]:
        for r in g["rules"]:
            if "alert" not in r:
                continue
            a = r["alert"]
            alerts.append(a)
            if "for" not in r:
                errs.append(f"{a}: no for:")
            if r.get("labels", {}).get("severity") not in SEVERITIES:
                errs.append(f"{a}: severity is not one of {', '.join(SEVERITIES)}")
            for k in ("summary", "description"):
                if not str(r.get("annotations", {}).get(k, "")).strip():
                    errs.append(f"{a}: no {k} annotation")
            url = str(r.get("annotations", {}).get("runbook_url", ""))
            if not url.endswith("#" + a.lower()) or a.lower() not in sections:
                errs.append(f"{a}: no runbook_url ending in #{a.lower()}, "
                            f"a section of {runbook_path}")
    fires, quiet = set(), set()
    for t in tests["tests"]:
        for c in t.get("alert_rule_test", []):
            (fires if c.get("exp_alerts") else quiet).add(c["alertname"])
    for a in alerts:
        if a not in fires:
            errs.append(f"{a}: no test case where it fires")
        if a not in quiet:
            errs.append(f"{a}: no test case where it does not fire")
    fail(errs)
    print(f"{len(alerts)} alerts, each with for, severity, summary, description, "
          "a runbook section, a case that fires and one that does not")


def check_dashboard(path, out_path):
    with open(path, encoding="utf-8") as f:
        dash = json.load(f)
    errs = []
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        errs.append(f"schemaVersion {dash.get('schemaVersion')!r}: Grafana 9.1 or later is 36+")
    for k in ("uid", "title"):
        if not dash.get(k):
            errs.append(f"no {k}")
    variables = dash.get("templating", {}).get("list", [])
    vnames = [v.get("name") for v in variables]
    ds = [v for v in variables if v.get("type") == "datasource"]
    if len(ds) != 1 or ds[0].get("query") != "prometheus":
        errs.append("not exactly one data source variable, of type prometheus")
    dsref = {"type": "prometheus", "uid": "${%s}" % (ds[0]["name"] if ds else "datasource")}
    builtin = {"__rate_interval", "__interval", "__range", "__range_s", "__interval_ms"}
    ids, cells = set(), {}
    for v in variables:
        if v.get("type") == "query" and v.get("datasource") != dsref:
            errs.append(f"variable {v.get('name')}: datasource is not {dsref}")
    for p in panels(dash):
        pid, title = p.get("id"), p.get("title")
        if pid in ids:
            errs.append(f"panel id {pid} twice")
        ids.add(pid)
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "xywh") or g["x"] + g["w"] > 24:
            errs.append(f"panel {pid} {title!r}: gridPos {g} not within 24 columns")
            continue
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells:
                    errs.append(f"panel {pid} {title!r} overlaps panel {cells[(x, y)]}")
                    break
                cells[(x, y)] = pid
            else:
                continue
            break
        if p.get("type") == "row":
            continue
        if p.get("datasource") != dsref:
            errs.append(f"panel {pid} {title!r}: datasource is not {dsref}")
        if not p.get("targets"):
            errs.append(f"panel {pid} {title!r}: no query")
        for t in p.get("targets", []):
            if t.get("datasource") != dsref:
                errs.append(f"panel {pid} {title!r} query {t.get('refId')}: datasource is not {dsref}")
    exprs = dashboard_exprs(dash)
    with open(out_path, "w", encoding="utf-8") as out:
        out.write("groups:\n  - name: dashboard\n    rules:\n")
        for i, (where, expr) in enumerate(exprs):
            for v in re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", expr):
                if v not in vnames and v not in builtin:
                    errs.append(f"{where}: ${v} is not a variable of the dashboard")
            e = re.sub(r"\$\{?__(rate_interval|interval|range)\}?", "5m", expr)
            e = re.sub(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?", ".*", e)
            out.write(f"      - record: dashboard:query_{i}\n        expr: {json.dumps(e)}\n")
    fail(errs)
    print(f"{len(ids)} panels, {len(exprs)} queries, {len(vnames)} variables")


def check_spec(spec_path, list_path):
    spec = set()
    with open(spec_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("|"):
                spec |= set(re.findall(r"ucounttop_[a-z0-9_]+", line))
    listed = set(read_list(list_path))
    if not spec:
        sys.exit(f"no metric name in the tables of {spec_path}")
    fail([f"in the specification, not in {list_path}: {n}" for n in sorted(spec - listed)] +
         [f"in {list_path}, not in the specification: {n}" for n in sorted(listed - spec)])
    print(f"{len(spec)} names, the same")


def check_kube(manifest, test, scrape, static_out):
    docs = [d for d in yaml.safe_load_all(open(manifest, encoding="utf-8")) if d]
    ds = [d for d in docs if d.get("kind") == "DaemonSet"]
    if len(ds) != 1:
        sys.exit(f"{manifest}: {len(ds)} DaemonSets, not 1")
    pod = ds[0]["spec"]["template"]["spec"]
    c = pod["containers"][0]
    sc = c.get("securityContext", {})
    errs = []
    text = open(test, encoding="utf-8").read()
    m = re.search(r"--cap-add=([A-Z_,]+)", text)
    tested = set(m.group(1).split(",")) if m else set()
    if not tested:
        errs.append(f"{test}: no --cap-add")
    if set(sc.get("capabilities", {}).get("add", [])) != tested:
        errs.append(f"capabilities {sorted(sc.get('capabilities', {}).get('add', []))}, "
                    f"not those {test} runs with: {sorted(tested)}")
    if sc.get("capabilities", {}).get("drop") != ["ALL"]:
        errs.append("capabilities: drop is not [ALL]")
    if sc.get("readOnlyRootFilesystem") and "--read-only" not in text:
        errs.append(f"a read-only root that {test} does not run with")
    if not pod.get("hostPID"):
        errs.append("no hostPID: the task iterator and /proc would see the pod alone")
    if sc.get("seccompProfile", {}).get("type") != "Unconfined" or "seccomp=unconfined" not in text:
        errs.append("not the seccomp profile 5O runs with (Unconfined)")
    mounts = {v["mountPath"]: v["name"] for v in c.get("volumeMounts", [])}
    paths = {v["name"]: v.get("hostPath", {}).get("path") for v in pod.get("volumes", [])}
    for host, at in (("/etc/passwd", "/etc/passwd"), ("/etc/group", "/etc/group"),
                     ("/sys/fs/cgroup", "/host/sys/fs/cgroup")):
        if paths.get(mounts.get(at)) != host:
            errs.append(f"the host's {host} is not mounted at {at}")
        if f"-v {host}:{at}:ro" not in text:
            errs.append(f"{test} does not mount {host} at {at}")
    args = c.get("args", [])
    if "--listen" not in args or "--web.config.file" not in args:
        errs.append("args lack --listen or --web.config.file")
    d = yaml.safe_load(open(scrape, encoding="utf-8"))
    job = d["scrape_configs"][0]
    if job.get("scheme") != "https" or "password_file" not in job.get("basic_auth", {}):
        errs.append(f"{scrape}: not https with basic auth from a password file")
    if not job.get("kubernetes_sd_configs"):
        errs.append(f"{scrape}: no Kubernetes discovery")
    fail(errs)
    del job["kubernetes_sd_configs"]
    job["static_configs"] = [{"targets": ["node1:9465"]}]
    with open(static_out, "w", encoding="utf-8") as f:
        yaml.safe_dump(d, f)
    print(f"the DaemonSet as {test} runs the image: {len(tested)} capabilities, hostPID, "
          "no seccomp profile, the host's passwd, group and cgroups; an https job with basic auth")


mode = sys.argv[1]
try:
    if mode == "alerts":
        check_alerts(sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "names":
        check_names(sys.argv[2], sys.argv[3:])
    elif mode == "dashboard":
        check_dashboard(sys.argv[2], sys.argv[3])
    elif mode == "spec":
        check_spec(sys.argv[2], sys.argv[3])
    elif mode == "kube":
        check_kube(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit(f"unknown mode {mode}")
except (OSError, ValueError, KeyError, TypeError, AttributeError, yaml.YAMLError) as e:
    sys.exit(f"{type(e).__name__}: {e}")
PYEOF

# ---- the rules ----------------------------------------------------------------
run "promtool check rules ${rules#"$UCT_ROOT"/}" promtool_rules "$rules"
run "promtool test rules ${rtests#"$UCT_ROOT"/}" promtool_test "${rtests%/*}"
run "every alert has for, severity, summary, description, a runbook section, and tests that fire and do not" \
	chk alerts "$rules" "$rtests" "$runbook"
run "the rules use the names of contrib/metrics.txt, counters in rate()/increase() only" \
	chk names "$list" "$rules"

# ---- the dashboard --------------------------------------------------------------
run "${dash#"$UCT_ROOT"/} is JSON" is_json "$dash"
run "the dashboard: one data source variable for every query, ids, grid, variables" \
	chk dashboard "$dash" "$tmp/dash-rules.yml"
run "every query of the dashboard is PromQL (promtool check rules)" promtool_rules "$tmp/dash-rules.yml"
run "the dashboard uses the names of contrib/metrics.txt, counters in rate()/increase() only" \
	chk names "$list" "$dash"

# ---- the Kubernetes manifest ------------------------------------------------------
kube=$contrib/kubernetes/ucounttop.yaml
kscrape=$contrib/kubernetes/prometheus-scrape.yml
t5o=$UCT_ROOT/guest/tests/5O-ucounttop-image.sh
run "the DaemonSet runs the image as guest test 5O does; its scrape job is TLS with basic auth" \
	chk kube "$kube" "$t5o" "$kscrape" "$tmp/kscrape-static.yml"
run "promtool check config passes the scrape job (with static targets)" \
	"$PROMTOOL" check config "$tmp/kscrape-static.yml"

# ---- the list against the specification ----------------------------------------
# a specification table made from the list: what the parser must find
{
	echo "| family | type |"
	echo "|--------|------|"
	awk '!/^#/ && NF { printf "| %s{%s} | %s |\n", $1, $3, $2 }' "$list"
} > "$tmp/spec.md"
run "the specification's parser reads a table made from the list" chk spec "$tmp/spec.md" "$list"
# what ucounttop serves is checked against the list where it is served
# (tests/host/openmetrics-endpoint.sh); a specification kept elsewhere
# can be compared here too
if [ -n "${UCT_METRICS_SPEC:-}" ]; then
	run "contrib/metrics.txt names exactly the metrics of $UCT_METRICS_SPEC" \
		chk spec "$UCT_METRICS_SPEC" "$list"
fi

# ---- each check refuses a broken copy -------------------------------------------
mkdir "$tmp/broken"
b=$tmp/broken
cp "$rules" "$rtests" "$b/"
sed -i 's/ucounttop:row_usage:ratio > 0.9/ucounttop:row_usage:ratio > > 0.9/' "$b/${rules##*/}"
refuses "promtool check rules refuses an expression that does not parse" promtool_rules "$b/${rules##*/}"
cp "$rules" "$b/"
awk '{ print } /- name: ucounttop.recording/ { getline; print; getline; print; print "        expr: ucounttop_nproc_processes / ucounttop_nproc_limit_processes"; print "        labels:"; print "          type: nproc"; print "      - record: ucounttop:row_usage:ratio" }' \
	"$rules" > "$b/dup.yml"
refuses "... and a recording rule given twice" promtool_rules "$b/dup.yml"
sed -i 's/at 95% of its limit/at 96% of its limit/' "$b/${rtests##*/}"
refuses "promtool test rules fails when an annotation is not the expected one" promtool_test "$b"
cp "$rtests" "$b/"
sed -i 's/ucounttop:row_usage:ratio > 0.9/ucounttop:row_usage:ratio > 0.95/' "$b/${rules##*/}"
refuses "... and when the threshold moves" promtool_test "$b"
cp "$rules" "$b/"
sed -i '/alert: UcounttopRowImbalanced/,/severity/{/for:/d}' "$b/${rules##*/}"
refuses "an alert without for: is refused" chk alerts "$b/${rules##*/}" "$rtests" "$runbook"
grep -v '^## UcounttopDrops$' "$runbook" > "$b/runbook.md"
refuses "an alert whose runbook has no section for it is refused" chk alerts "$rules" "$rtests" "$b/runbook.md"
"$PY" - "$rtests" "$b/quiet.yml" <<'PYEOF'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for t in doc["tests"]:
    t["alert_rule_test"] = [c for c in t.get("alert_rule_test", [])
                            if c["alertname"] != "UcounttopDrops" or c.get("exp_alerts")]
yaml.safe_dump(doc, open(sys.argv[2], "w"))
PYEOF
refuses "an alert without a case where it does not fire is refused" chk alerts "$rules" "$b/quiet.yml" "$runbook"
sed 's/ucounttop_row_imbalanced == 1/ucounttop_row_flag{flag="imbalanced"} == 1/' "$rules" > "$b/old.yml"
refuses "the rules' names: an old name (ucounttop_row_flag) is refused" chk names "$list" "$b/old.yml"
sed 's/increase(ucounttop_drops_total{/delta(ucounttop_drops_total{/' "$rules" > "$b/delta.yml"
refuses "... so is a counter outside rate()/increase()" chk names "$list" "$b/delta.yml"

sed 's/add: \[BPF, /add: [NET_ADMIN, BPF, /' "$kube" > "$b/kube.yaml"
refuses "a DaemonSet with a capability 5O does not run with is refused" \
	chk kube "$b/kube.yaml" "$t5o" "$kscrape" "$b/kscrape.yml"
sed '/hostPID: true/d' "$kube" > "$b/kube.yaml"
refuses "... and one without hostPID" chk kube "$b/kube.yaml" "$t5o" "$kscrape" "$b/kscrape.yml"

head -c 2000 "$dash" > "$b/cut.json"
refuses "a dashboard cut short is not JSON" is_json "$b/cut.json"
sed 's/"expr": "ucounttop_memlock_bytes{/"expr": "ucounttop_rlimit_value{type=\\"memlock\\", /' "$dash" > "$b/old.json"
refuses "the dashboard's names: an old name (ucounttop_rlimit_value) is refused" chk names "$list" "$b/old.json"
sed 's/rate(ucounttop_scrape_errors_total/rate(ucounttop_scrape_duration_seconds/' "$dash" > "$b/gauge.json"
refuses "... so is rate() of a gauge" chk names "$list" "$b/gauge.json"
"$PY" - "$dash" "$b/ds.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["panels"][1]["targets"][0]["datasource"] = {"type": "prometheus", "uid": "P1809F7CD0C75ACF3"}
json.dump(d, open(sys.argv[2], "w"))
PYEOF
refuses "a query with a data source of its own is refused" chk dashboard "$b/ds.json" "$b/ds-rules.yml"
# shellcheck disable=SC2016 # $ns: Grafana's, in the JSON
sed 's/ns=~\\"$ns\\", kuid=~\\"$kuid\\"})", *$/ns=~\\"$namespace\\"})",/' "$dash" > "$b/var.json"
refuses "... so is a variable that is not defined" chk dashboard "$b/var.json" "$b/var-rules.yml"
sed 's/"expr": "sum by (type) (rate(/"expr": "sum by type (rate(/' "$dash" > "$b/syntax.json"
if chk dashboard "$b/syntax.json" "$b/syntax-rules.yml" > /dev/null 2>&1; then
	refuses "promtool refuses a query that is not PromQL" promtool_rules "$b/syntax-rules.yml"
else
	nok "promtool refuses a query that is not PromQL: the broken dashboard did not get that far"
fi
{ cat "$tmp/spec.md"; echo "| ucounttop_rlimit_value{ns,level,uid,type} | gauge |"; } > "$b/spec.md"
refuses "a specification with a name the list has not is refused" chk spec "$b/spec.md" "$list"
grep -v ucounttop_drops_total "$tmp/spec.md" > "$b/spec.md"
refuses "... and one without a name the list has" chk spec "$b/spec.md" "$list"
finish
