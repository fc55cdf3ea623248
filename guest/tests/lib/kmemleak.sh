# kmemleak_scan: kmemleak, by hand (CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN=n),
# its report onto standard output (the console) for the host's scanner
# (tests/host/splat-scan.sh), every line tagged "uct-kmemleak: ". An
# object is reported only once it is older than 5 s and was found
# unreferenced by a scan; the second scan, after a pause, lets objects
# freed late by the tests (RCU callbacks, deferred work) settle, as
# kmemleak's documentation advises. Sourced by guest/debug-tests.sh and
# guest/sweep.sh.
kmemleak_scan() {
	local kml=/sys/kernel/debug/kmemleak
	echo "=== kmemleak"
	if [ ! -e "$kml" ]; then
		echo "uct-debug: kmemleak unavailable: no $kml (not a CONFIG_DEBUG_KMEMLEAK kernel)"
	elif echo scan 2> /tmp/kmemleak.err > "$kml"; then
		sleep 5
		echo scan > "$kml"
		sed 's/^/uct-kmemleak: /' "$kml"
		echo "uct-debug: kmemleak scanned twice, $(grep -c '^unreferenced object' "$kml") suspected leaks"
	else
		# kmemleak turns itself off on an internal error (pool
		# exhausted...): the host fails the run on this line
		echo "uct-debug: kmemleak unavailable: $(cat /tmp/kmemleak.err)"
	fi
}
