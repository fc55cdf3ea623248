#!/bin/sh
# check is bounded and honest about CMD (KTAP):
#  - a background descendant is waited for at most --settle, then named in
#    the report with what it holds, never waited on forever;
#  - --timeout bounds CMD itself (its process group and every descendant
#    get SIGTERM, and SIGKILL 2 s later when they ignore that);
#  - SIGINT, SIGTERM and SIGHUP to check are forwarded to CMD's process
#    group and the report is still printed; a signal while check waits
#    for CMD's descendants cuts the wait short;
#  - a failing CMD never yields exit 0 (7: counters clean, CMD failed);
#  - -o FILE takes the report, CMD keeps stdout.
# Elapsed times are bounded with `timeout`, never asserted as figures.
. /uct/tests/lib/ktap.sh
U=/uct/bin/ucounttop
T=/tmp/t67
mkdir -p $T
# pids whose comm is $1 (busybox has no pgrep). With read, not a cat per
# process: this loop runs beside check, and a shell forking that fast
# beside an interrupted check can make it report a false finding at the
# shell's own row (ucounttop(8), CHECK).
pids_of() {
	for p in /proc/[0-9]*; do
		c=
		read -r c < $p/comm 2>/dev/null
		[ "$c" = "$1" ] && echo "${p#/proc/}"
	done
}
running() { [ -n "$(pids_of "$1")" ]; }
echo "KTAP version 1"

# 1. sh -c 'sleep 1000 &': sh exits at once, its sleeper is left running.
timeout 60 $U check --settle 2 --json -o $T/bg.json -- sh -c 'exec 1>&- 2>&-; (exec sleep 1000) &'
rc=$?
expect "background sleeper: check returns (not killed by the 60 s bound), exit 0" "$rc" 0
sleeper=$(pids_of sleep | head -n 1)
if grep -q '"left_running":\[{"pid":'"$sleeper"',"comm":"sleep","uid":0,' $T/bg.json; then
	pass "background sleeper: named in left_running (pid $sleeper)"
else
	fail "background sleeper: named in left_running (pid $sleeper)"
	sed 's/^/# /' $T/bg.json
fi
waited=$(sed -n 's/.*"settle":{"waited":\([0-9.]*\),.*/\1/p' $T/bg.json)
expect "background sleeper: settle waited --settle 2, not much more (waited $waited)" \
	"$(echo "$waited" | awk '{ print ($1 < 7) ? "yes" : "no" }')" yes
timeout 60 $U check --settle 1 -- sh -c 'exec 1>&- 2>&-; (exec sleep 1000) &' > $T/bg.txt
grep -q "^# left running, not waited for: pid [0-9]* sleep uid 0 userns [0-9]*: holds nproc 1" $T/bg.txt &&
	pass "background sleeper: text report names it" ||
	{ fail "background sleeper: text report names it"; sed 's/^/# /' $T/bg.txt; }
kill $(pids_of sleep) 2>/dev/null

# 2. --timeout: CMD's group gets SIGTERM; exit 124 (a timeout to
# kselftest's runner), "timed_out":true
timeout 60 $U check --timeout 1 --json -o $T/to.json -- sleep 100
rc=$?
expect "--timeout 1 on sleep 100: exit 124 (timed out, counters clean)" "$rc" 124
grep -q '"signal":15,.*"timed_out":true' $T/to.json && pass "--timeout: CMD killed by SIGTERM, timed_out true" ||
	{ fail "--timeout: CMD killed by SIGTERM, timed_out true"; sed 's/^/# /' $T/to.json; }

# 2b. a CMD that ignores SIGTERM: SIGKILL 2 s later
timeout 60 $U check --timeout 1 --json -o $T/kill.json -- sh -c 'trap "" TERM; exec sleep 100'
rc=$?
expect "--timeout 1 on a CMD ignoring SIGTERM: exit 124" "$rc" 124
grep -q '"signal":9,.*"timed_out":true' $T/kill.json && pass "--timeout: SIGTERM ignored, then SIGKILL" ||
	{ fail "--timeout: SIGTERM ignored, then SIGKILL"; sed 's/^/# /' $T/kill.json; }
expect "--timeout: nothing of CMD's group left" "$(pids_of sleep)" ""

# 2c. a descendant in a session and group of its own (as a kselftest
# harness runs each test) that ignores SIGTERM ends with CMD too
timeout 60 $U check --timeout 1 --json -o $T/grp.json -- \
	sh -c 'setsid sh -c "trap \"\" TERM; exec sleep 1002" & exec sleep 100'
rc=$?
expect "--timeout 1, a descendant in a group of its own ignoring SIGTERM: exit 124" "$rc" 124
expect "--timeout: that descendant is gone too" "$(pids_of sleep)" ""
grep -q '"left_running":\[\]' $T/grp.json && pass "--timeout: nothing named left running" ||
	{ fail "--timeout: nothing named left running"; sed 's/^/# /' $T/grp.json; }

# 3. SIGINT, SIGTERM, SIGHUP to check: forwarded to CMD's process group,
# report printed
for sig in INT:2 TERM:15 HUP:1; do
	name=${sig%:*} num=${sig#*:}
	$U check --json -o $T/sig$name.json -- sh -c 'sleep 100; true' &
	ck=$!
	waitfor 100 running sleep
	kill -$name $ck
	w=100
	while kill -0 $ck 2>/dev/null && [ $w -gt 0 ]; do usleep 100000; w=$((w - 1)); done
	wait $ck
	rc=$?
	expect "SIG$name: check exits 7 after forwarding it" "$rc" 7
	[ "$rc" = 7 ] || sed 's/,{"class":/\n{"class":/g' $T/sig$name.json |
		grep -e '"failing":true' -e '"notes"' | cut -c 1-800 | sed 's/^/# /'
	grep -q "\"interrupted_by\":$num," $T/sig$name.json &&
		pass "SIG$name: report printed, interrupted_by $num" ||
		{ fail "SIG$name: report printed, interrupted_by $num"; sed 's/^/# /' $T/sig$name.json 2>/dev/null; }
	expect "SIG$name: nothing of CMD's group left" "$(pids_of sleep)" ""
done

# 3b. a signal while check waits --settle for a descendant: the wait ends
# there (CMD's sh has exited once check, the subreaper, is the sleeper's
# parent)
$U check --settle 60 --json -o $T/cut.json -- sh -c 'exec 1>&- 2>&-; (exec sleep 1000) &' &
ck=$!
waitfor 100 running sleep
sleeper=$(pids_of sleep | head -n 1)
parent_is_check() { [ "$(cut -d' ' -f4 /proc/$sleeper/stat 2>/dev/null)" = "$ck" ]; }
waitfor 100 parent_is_check || fail "settle: CMD's sh exited, check adopted the sleeper"
kill -INT $ck
w=300
while kill -0 $ck 2>/dev/null && [ $w -gt 0 ]; do usleep 100000; w=$((w - 1)); done
if kill -0 $ck 2>/dev/null; then
	fail "settle: SIGINT ended the 60 s wait (check still waiting 30 s later)"
	kill -KILL $ck
else
	pass "settle: SIGINT ended the 60 s wait"
fi
wait $ck
expect "settle: report printed, interrupted_by 2, exit 7" \
	"$?:$(grep -c '"interrupted_by":2,' $T/cut.json)" "7:1"
grep -q '"left_running":\[{"pid":'"$sleeper"',' $T/cut.json && pass "settle: the sleeper named in left_running" ||
	{ fail "settle: the sleeper named in left_running"; sed 's/^/# /' $T/cut.json; }
kill $(pids_of sleep) 2>/dev/null

# 4. a failing CMD, a clean one, and CMD's status as kselftest's runner
# reads it: 4 a skip, 124 a timeout, passed through when nothing failed
$U check -- false > $T/false.txt
expect "check -- false: exit 7" "$?" 7
$U check -- sh -c 'exit 4' > $T/skip.txt
expect "check -- (exit 4): exit 4 (skip), the report says so and is clean" \
	"$?:$(grep -c '^# command: sh -c exit 4 (pid [0-9]*) exited 4 (skipped);' $T/skip.txt):$(grep -c '^# FAIL' $T/skip.txt)" \
	"4:1:0"
$U check -- sh -c 'exit 124' > $T/t124.txt
expect "check -- (exit 124): exit 124 (timeout)" "$?" 124
$U check -- sh -c 'exit 3' > $T/t3.txt
expect "check -- (exit 3): exit 7 (a failure, not check's own 3)" "$?" 7

# 4b. --ktap: one KTAP document, CMD's own KTAP nested as subtest 1 (its
# lines relayed, indented), check's verdict per class as subtest 2
$U check --ktap -- sh -c 'echo "KTAP version 1"; echo 1..1; echo "ok 1 inner"; echo oops >&2; exit 4' > $T/k.txt
rc=$?
# top: the document's own lines; nested: every other line is indented
top=$(grep -v '^    ' $T/k.txt)
expect "--ktap: exit 4 (CMD skipped), the document's top level" "$rc
$top" "4
KTAP version 1
1..2
ok 1 sh # SKIP
ok 2 ucounttop-check"
expect "--ktap: CMD's KTAP and its stderr nested in subtest 1, in order" \
	"$(sed -n '3,6p' $T/k.txt)" "    KTAP version 1
    1..1
    ok 1 inner
    oops"
expect "--ktap: subtest 2 names itself and plans one test per class judged" \
	"$(sed -n '/^    # Subtest: ucounttop-check$/,/^ok 2/p' $T/k.txt | sed -n '2p') $(grep -c '^    \(not \)\{0,1\}ok [0-9]* [a-z-]*' $T/k.txt)" \
	"    1..5 6"
if ! awk '/^    # Subtest: ucounttop-check$/ { s = 1 } s && /^    not ok/ { bad = 1 } END { exit bad }' $T/k.txt; then
	fail "--ktap: no class fails on a clean run"
	sed 's/^/# /' $T/k.txt
else
	pass "--ktap: no class fails on a clean run"
fi
$U check --ktap --timeout 1 -- sleep 100 > $T/kt.txt
expect "--ktap --timeout: exit 124, '# TIMEOUT' on CMD's line" \
	"$?:$(grep -c '^not ok 1 sleep # TIMEOUT 1 seconds$' $T/kt.txt)" "124:1"
$U check -- true > $T/true.txt
expect "check -- true: exit 0" "$?" 0

# 5. -o FILE: the report goes there, CMD's stdout stays CMD's
$U check -o $T/o.txt -- echo hello > $T/o.out
expect "-o: exit 0, CMD's stdout is CMD's alone" "$?:$(cat $T/o.out)" "0:hello"
expect "-o: the report is in FILE" "$(head -n 1 $T/o.txt | cut -c 1-17)" "# ucounttop check"
echo "1..$n"
[ "$fails" -eq 0 ]
