#!/bin/sh
# 55: --openmetrics output, -o FILE atomic replacement (node_exporter
# textfile collector).
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t55
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ -x "$UCT" ] || exit 4

$UCT --openmetrics -n 1 > $T/om 2> $T/err
check "--openmetrics -n 1 exits 0" [ $? -eq 0 ]
check "ends with # EOF" [ "$(tail -n 1 $T/om)" = "# EOF" ]
check "root's nproc sample" [ -n "$(grep '^ucounttop_nproc_processes{ns="[0-9]*",level="0",kuid="0"} [0-9][0-9]*$' $T/om)" ]
check "memlock in bytes, with its UNIT; no old family" \
	[ "$(grep -cx '# UNIT ucounttop_memlock_bytes bytes' $T/om) $(grep -cE '(^|^# [A-Z]+ )ucounttop_(rlimit_|namespace_rlimit_max|row_flag)' $T/om)" = "1 0" ]
check "a row state sample for every row" \
	[ "$(grep -c '^ucounttop_row_over_limit{' $T/om)" = "$(grep -c '^ucounttop_nproc_processes{' $T/om)" ]
check "no label with an empty value" [ -z "$(grep '=""' $T/om)" ]
check "TYPE lines for every family" [ "$(grep -c '^# TYPE' $T/om)" -ge 6 ]
# the exporter's own samples have no labels; seconds are fractions
bad=$(grep -v '^#' $T/om | grep -Ev '^ucounttop_[a-z_]+(\{[^}]*\})? [-+0-9.Inf]+$')
check "every sample line is name[{labels}] value" [ -z "$bad" ]

$UCT --openmetrics -n 2 -d 0.2 -o $T/ucounts.prom 2> $T/err2
check "-o FILE exits 0" [ $? -eq 0 ]
check "-o FILE written, no temporary left" [ -s $T/ucounts.prom -a -z "$(ls -a $T | grep '^\.ucounts\.prom\.')" ]
check "-o FILE holds one exposition" [ "$(grep -c '^# EOF' $T/ucounts.prom)" -eq 1 ]
check "-o FILE is readable by others (0644)" [ "$(stat -c %a $T/ucounts.prom)" = 644 ]

# Nothing planted next to FILE is followed: not the old FILE.tmp name, and
# the temporary file's name is random (mkstemp)
echo victim > $T/victim
ln -sf $T/victim $T/planted.prom.tmp
$UCT --openmetrics -n 1 -o $T/planted.prom 2> $T/err3
check "-o FILE with a symlink at FILE.tmp exits 0" [ $? -eq 0 ]
check "... the symlink's target is untouched" [ "$(cat $T/victim)" = victim ]
check "... FILE holds the exposition" [ "$(tail -n 1 $T/planted.prom)" = "# EOF" ]
check "... no temporary file left" [ -z "$(ls -a $T | grep '^\.planted\.prom\.')" ]
$UCT --openmetrics -n 1 -o /nonexistent-dir/x.prom 2> $T/err4
check "-o into a missing directory: exit 1, saying why" \
	[ $? -eq 1 -a -n "$(grep '^ucounttop: -o /nonexistent-dir/x.prom: its directory: No such file or directory' $T/err4)" ]
echo "1..$n"
