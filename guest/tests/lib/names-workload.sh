# Sourced by 5A and 5B (after ktap.sh): start `$WL --names` with its output
# in $T/wl.out, stopped when the test exits, and wait for its READY; a
# workload that never gets ready ends the test (one "not ok", exit 1).
start_names_workload() {
	# a READY left by an earlier run must not be mistaken for this one's: the
	# redirection below truncates the file only once the job has started
	rm -f $T/wl.out
	$WL --names > $T/wl.out 2> $T/wl.err &
	wl=$!
	cleanup() { kill $wl 2>/dev/null; wait $wl 2>/dev/null; }
	trap cleanup EXIT
	if ! waitfor 600 grep -q '^READY' $T/wl.out; then
		fail "uct-workload --names ready"
		cat $T/wl.err
		echo "1..$n"
		exit 1
	fi
	pass "uct-workload --names ready"
}
