#!/bin/sh
# `ucounttop check --kselftest DIR...`, the runner mode (KTAP):
#  1. the rlimits, mqueue, ptrace and pidfd collections as built in
#     /uct/selftests, one run, the programs loaded once, --timeout over
#     their settings: one result line
#     per test in kselftest's "selftests: COLLECTION: TEST" form, check's
#     own document nested under each, the "# Totals:" line with every test
#     passed and none failed, exit 0;
#  2. a collection of our own where one test leaks (uct_fault's "leak"):
#     that test, and only it, is "not ok" with the lost uncharge in its
#     nested document; the clean test after it is not blamed (the runner
#     clears the events between tests); a test exiting 4 is a skip; the
#     settings file's timeout=2 ends a test that sleeps (# TIMEOUT);
#     Totals and exit 1 (an imbalance) follow;
#  3. an installed tree's kselftest-list.txt names what runs, each
#     collection's settings file read (rlimits' own timeout);
#  4. SIGTERM to the runner ends the test that runs and the rest are
#     reported as not run, exit 7;
#  5. mistakes are usage errors (2) before anything loads.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/check-fault.sh
n=0
fails=0
T=/tmp/t68
S=/uct/selftests
rm -rf $T
mkdir -p $T
echo "KTAP version 1"

# The result lines of a runner's document: "ok N selftests: C: T[ # ...]",
# unindented
results() { grep -E '^(not )?ok [0-9]+ selftests: ' "$1"; }
totals() { grep '^# Totals: ' "$1"; }

# 1. kselftest's own collections
colls=
want=0
for c in rlimits mqueue ptrace pidfd; do
	[ -d $S/$c ] || continue
	colls="$colls $S/$c"
	for f in $S/$c/*; do
		[ -f "$f" ] && [ -x "$f" ] && want=$((want + 1))
	done
done
# --timeout over every settings file: pidfd_test alone forks 32768 times,
# 24 s of a TCG guest, and kselftest's 45 s would make a slow host a
# failure (our own collection below tests the settings file)
timeout 1800 $U check --kselftest --timeout 300 $colls > $T/ksft.ktap 2> $T/ksft.err
rc=$?
expect "collections ($want tests): the runner exits 0" "$rc" 0
expect "collections: one result line per test" "$(results $T/ksft.ktap | wc -l | tr -d ' ')" "$want"
expect "collections: the plan says as many" "$(sed -n 2p $T/ksft.ktap)" "1..$want"
expect "collections: Totals, every test passed" "$(totals $T/ksft.ktap)" \
	"# Totals: pass:$want fail:0 xfail:0 xpass:0 skip:0 error:0"
expect "collections: check's verdict nested under each ('    ok 2 ucounttop-check')" \
	"$(grep -c '^    ok 2 ucounttop-check$' $T/ksft.ktap)" "$want"
expect "collections: a test's own output nested two levels in" \
	"$(grep -c '^        ' $T/ksft.ktap | awk '{ print ($1 > 0) ? "yes" : "no" }')" yes
expect "collections: --timeout 300 bounds every test" \
	"$(grep -c '^# timeout set to 300$' $T/ksft.ktap)" "$want"
if [ "$rc" != 0 ] || [ $fails -gt 0 ]; then
	results $T/ksft.ktap | grep '^not ok' | sed 's/^/# /'
	tail -n 40 $T/ksft.ktap | sed 's/^/# /'
	sed 's/^/# stderr: /' $T/ksft.err
fi

# 2. our own collection: clean, leak, clean, skip, timeout
C=$T/mine
mkdir -p $C
load_module
start_holder
printf '#!/bin/sh\nsh -c true\n' > $C/a_clean
printf '#!/bin/sh\nnsenter -U -t %s sh -c "echo leak nproc 3 > %s"\n' "$holder" "$I" > $C/b_leaks
printf '#!/bin/sh\nsh -c true & wait\n' > $C/c_clean
printf '#!/bin/sh\nexit 4\n' > $C/d_skips
printf '#!/bin/sh\nexec sleep 100\n' > $C/e_sleeps
printf 'README, not a test\n' > $C/f_readme
echo timeout=2 > $C/settings
chmod 755 $C/?_[a-z]*
chmod 644 $C/f_readme
timeout 300 $U check --kselftest --settle 1 $C > $T/mine.ktap 2> $T/mine.err
rc=$?
expect "leaking collection: exit 1 (an imbalance)" "$rc" 1
expect "leaking collection: result lines" "$(results $T/mine.ktap)" \
"ok 1 selftests: mine: a_clean
not ok 2 selftests: mine: b_leaks # exit=1
ok 3 selftests: mine: c_clean
ok 4 selftests: mine: d_skips # SKIP
not ok 5 selftests: mine: e_sleeps # TIMEOUT 2 seconds"
expect "leaking collection: Totals" "$(totals $T/mine.ktap)" \
	"# Totals: pass:2 fail:2 xfail:0 xpass:0 skip:1 error:0"
# b_leaks' nested document: its lost uncharge, at the holder's namespace
sed -n '/^# selftests: mine: b_leaks$/,/^not ok 2 /p' $T/mine.ktap > $T/b.ktap
grep -q '^        not ok 1 lost-uncharge$' $T/b.ktap && grep -q '^    not ok 2 ucounttop-check$' $T/b.ktap
expect "b_leaks: its nested document fails lost-uncharge" "$?" 0
grep -q "^        # FAIL lost-uncharge: ns $ns level 1 uid 0 nproc 3 processes$" $T/b.ktap
expect "b_leaks: the finding: the holder's namespace ($ns), uid 0, nproc 3" "$?" 0
expect "no other test's document has a failing class" \
	"$(grep -c '^        not ok ' $T/mine.ktap)" 1
[ $fails -eq 0 ] || { sed 's/^/# /' $T/mine.ktap; sed 's/^/# stderr: /' $T/mine.err; }
stop_holder
unload_module

# 3. an installed tree: kselftest-list.txt, collections below it
mkdir -p $T/inst
ln -s $S/rlimits $T/inst/rlimits
ln -s $C $T/inst/mine
printf 'mine:d_skips\nrlimits:rlimits-per-userns\n' > $T/inst/kselftest-list.txt
timeout 300 $U check --kselftest $T/inst > $T/inst.ktap 2> $T/inst.err
rc=$?
expect "installed tree: exit 0, what its list names, in its order" "$rc: $(results $T/inst.ktap)" \
"0: ok 1 selftests: mine: d_skips # SKIP
ok 2 selftests: rlimits: rlimits-per-userns"
expect "installed tree: each collection's settings timeout" "$(grep '^# timeout set to' $T/inst.ktap)" \
"# timeout set to 2
# timeout set to $(sed -n 's/^timeout=//p' $S/rlimits/settings)"

# 4. SIGTERM while the first of three sleepers runs
S3=$T/sleepers
mkdir -p $S3
for t in s1 s2 s3; do printf '#!/bin/sh\nexec sleep 677\n' > $S3/$t; chmod 755 $S3/$t; done
$U check --kselftest $S3 > $T/term.ktap 2> $T/term.err &
runner=$!
# once s1's `sleep 677` runs: check has started it, and forwards what it
# gets (677: no other test's sleeper). comm with read, not a fork per
# process: this loop runs beside check
sleeping() {
	for p in /proc/[0-9]*; do
		c=
		read -r c < $p/comm 2> /dev/null
		[ "$c" = sleep ] || continue
		[ "$(tr '\0' ' ' < $p/cmdline 2> /dev/null)" = "sleep 677 " ] && return 0
	done
	return 1
}
waitfor 600 sleeping
kill -TERM $runner
wait $runner
rc=$?
expect "SIGTERM: exit 7, the test that ran interrupted, the rest not run" "$rc: $(results $T/term.ktap)" \
"7: not ok 1 selftests: sleepers: s1 # exit=7
not ok 2 selftests: sleepers: s2 # ERROR not run: interrupted
not ok 3 selftests: sleepers: s3 # ERROR not run: interrupted"
sleeping
expect "SIGTERM: no sleeper left running" "$?" 1

# 5. usage errors, before anything is loaded
mkdir -p $T/empty
$U check --kselftest $T/empty > /dev/null 2> $T/err
expect "an empty directory: exit 2, named" "$?: $(cat $T/err)" \
	"2: ucounttop: --kselftest $T/empty: no executable file in it, and no kselftest-list.txt (a collection's directory, or where kselftests were installed)"
$U check --kselftest $T/nosuch > /dev/null 2> $T/err
expect "a missing directory: exit 2, named" "$?: $(cat $T/err)" \
	"2: ucounttop: --kselftest $T/nosuch: No such file or directory"

echo "1..$n"
[ $fails -eq 0 ]
