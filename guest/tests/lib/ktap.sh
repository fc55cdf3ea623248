# KTAP helpers for the guest tests (sourced, not run): numbered results,
# comparisons with both values shown on failure, bounded polling.
# The test ends with: echo "1..$n"; [ "$fails" -eq 0 ]
n=0
fails=0
pass() { n=$((n + 1)); echo "ok $n $*"; }
fail() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
# skip NAME WHY: a result this kernel cannot give
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
# expect NAME GOT WANT: pass when GOT = WANT (multi-line values are fine)
expect() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1"
		echo "$2" | sed 's/^/#   got:  /'
		echo "$3" | sed 's/^/#   want: /'
	fi
}
# within_misses GOT WANT MISSES: GOT is WANT, or short of it by at most
# MISSES: a program run the kernel skipped (one entered again on its CPU
# while preempted inside, as fentry/fexit programs are on PREEMPT_RT)
# counted nothing, and was reported. A count over WANT is never explained.
within_misses() {
	[ "$1" = "$2" ] || { [ -n "$1" ] && [ "$1" -lt "$2" ] && [ $(($2 - $1)) -le "${3:-0}" ]; }
}
# miss_note GOT WANT MISSES: what a shortfall within_misses() let pass says
miss_note() {
	[ "$1" = "$2" ] || echo "; short by $(($2 - ${1:-0})), within the ${3:-0} runs the kernel skipped"
}
# expect_counted NAME GOT WANT MISSES: expect, where GOT may fall short of
# WANT by the program runs the kernel skipped and reported
expect_counted() {
	if [ "$2" != "$3" ] && within_misses "$2" "$3" "$4"; then
		pass "$1$(miss_note "$2" "$3" "$4")"
	else
		expect "$1" "$2" "$3"
	fi
}
# waitfor TENTHS CMD...: poll CMD until it succeeds, at most TENTHS/10 s.
# (sh has no locals: the counter's name must not clash with a caller's)
waitfor() {
	_waitfor_left=$1
	shift
	while ! "$@"; do
		[ "$_waitfor_left" -le 0 ] && return 1
		_waitfor_left=$((_waitfor_left - 1))
		usleep 100000
	done
}
