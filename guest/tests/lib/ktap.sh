# KTAP helpers for the guest tests (sourced, not run): numbered results,
# comparisons with both values shown on failure, bounded polling.
# The test ends with: echo "1..$n"; [ "$fails" -eq 0 ]
n=0
fails=0
pass() { n=$((n + 1)); echo "ok $n $*"; }
fail() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
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
