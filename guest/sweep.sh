#!/bin/sh
# make sweep, in the guest: each kselftest collection of /uct/sweep (see
# guest/build-sweep.sh), run first by kselftest's own runner
# (run_kselftest.sh, its results as they are) and then under
# `ucounttop check --kselftest` (the same tests, check's verdict nested
# under each). For tests/host/kselftest-sweep.sh, onto /dev/uct-results
# as each collection ends (so that a guest that runs out of time keeps
# what it did), a line each:
#   A COLL LINE   a line of the run alone (KTAP)
#   C COLL LINE   a line of the run under check (KTAP)
#   T COLL ALONE_S CHECK_S CHECK_RC
#   V KERNEL_RELEASE CPUS   (first)
# SWEEP_ONLY: a space-separated list of collections to run (default all);
# SWEEP_UNBOUNDED: seconds a test of a collection whose settings set no
# timeout gets (120).
S=/uct/sweep
U=/uct/bin/ucounttop
R=/dev/uct-results
[ -e $R ] || R=/dev/null
# the collections' scripts are bash's
[ -e /bin/bash ] || ln -s /uct/sweep-bin/bash /bin/bash
# the collections built dynamically load Debian's libraries (.libs):
# those the image does not have already (ucounttop loads its own)
mkdir -p /lib/x86_64-linux-gnu /lib64
for l in $S/.libs/*; do
	[ -e "$l" ] || continue
	d=/lib/x86_64-linux-gnu
	[ "${l##*/}" = ld-linux-x86-64.so.2 ] && d=/lib64
	[ -e "$d/${l##*/}" ] || ln -s "$l" "$d/"
done
# kselftest's runner bounds each test with /usr/bin/timeout --foreground;
# busybox's timeout signals the test's pid alone, and children that
# outlive it hold the runner's pipe (file_stressor: 900 s for its 45).
# uct-timeout (guest/tools) ends the test's process group, SIGKILL 10 s
# after SIGTERM, as check --timeout does, and exits 124 as coreutils'.
rm -f /usr/bin/timeout
printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /uct/bin/uct-timeout -k 10 "$@"\n' > /usr/bin/timeout
chmod 0755 /usr/bin/timeout

now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }

# A test killed at its timeout skips its teardown: file_stressor's
# mkdir("/slab_typesafe_by_rcu") then fails the next run. Empty
# directories a run leaves at / are removed before the next one.
ls -A / > /tmp/sweep.root
tidy_root() {
	ls -A / | grep -vxF -f /tmp/sweep.root | while read -r d; do
		rmdir "/$d" 2> /dev/null
	done
}

colls=${SWEEP_ONLY:-$(cut -d: -f1 $S/kselftest-list.txt | uniq)}
echo "V $(uname -r) $(nproc)" >> $R
for c in $colls; do
	echo "# sweep: $c"
	t0=$(now)
	# each test bounded by twice its collection's settings timeout, in
	# both runs: TCG is slower than what the settings were written for,
	# and check's hooks slow every fork (pidfd_test's 32,768 forks take
	# more than 45 s under check); one whose settings say none
	# (timeout=0: rseq, timers) by SWEEP_UNBOUNDED seconds, so that the
	# sweep ends
	t=$(sed -n 's/^timeout=\([0-9]*\).*/\1/p' $S/$c/settings 2> /dev/null)
	t=$((${t:-45} * 2))
	[ "$t" = 0 ] && t=${SWEEP_UNBOUNDED:-120}
	# appending: the runner writes each test's output through a second
	# open of /dev/stdout, which must not overwrite its own lines
	: > /tmp/sweep.alone
	(cd $S && ./run_kselftest.sh -o $t -c "$c") >> /tmp/sweep.alone 2>&1
	tidy_root
	t1=$(now)
	# the same tests under check: an installed tree of this collection
	# alone (its list lines, its directory)
	rm -rf /tmp/sweep.one
	mkdir -p /tmp/sweep.one/$(dirname "$c")
	ln -s $S/$c /tmp/sweep.one/$c
	grep "^$c:" $S/kselftest-list.txt > /tmp/sweep.one/kselftest-list.txt
	$U check --timeout $t --kselftest /tmp/sweep.one > /tmp/sweep.check 2>&1
	rc=$?
	tidy_root
	t2=$(now)
	{
		sed "s|^|A $c |" /tmp/sweep.alone
		sed "s|^|C $c |" /tmp/sweep.check
		echo "T $c $(elapsed $t0 $t1) $(elapsed $t1 $t2) $rc"
	} >> $R
	tail -n 1 /tmp/sweep.check | sed 's/^/# /'
done
echo "# sweep: done"
# the debug kernel: what kmemleak finds after every collection ran
if [ -e /sys/kernel/debug/kmemleak ]; then
	. /uct/tests/lib/kmemleak.sh
	kmemleak_scan
	sleep 1
fi
