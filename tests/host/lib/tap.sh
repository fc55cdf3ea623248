# TAP for the host suites (sourced after guest/lib.sh, with $tmp set):
# numbered results, diagnostics, the plan at the end. Each suite prints
# "ok N - NAME" / "not ok N - NAME", "# ..." lines, then "1..N", and
# exits non-zero when anything failed (tests/run.sh counts the lines).
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /'; }
# finish: the plan, and the suite's status
finish() {
	echo "1..$n"
	[ "$fails" -eq 0 ]
	exit
}
# check NAME: ok when $tmp/err is empty, else not ok with its content
check() {
	if [ -s "$tmp/err" ]; then
		nok "$1"
		diag < "$tmp/err"
	else
		ok "$1"
	fi
	: > "$tmp/err"
}
# run NAME CMD...: ok when CMD succeeds, its last line of output (a
# summary) in the name; else not ok with all it said
run() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name${out:+: $(tail -n 1 <<< "$out" | cut -c1-160)}"
	else
		nok "$name"
		diag <<< "$out"
	fi
}
# refuses NAME CMD...: ok when CMD fails (what it said in the name), else
# not ok: a check that takes a broken input proves nothing
refuses() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		nok "$name"
		diag <<< "$out"
	else
		ok "$name: $(grep . <<< "$out" | tail -n 1 | cut -c1-160)"
	fi
}
# expect NAME GOT WANT: ok when GOT = WANT, else both shown
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		nok "$1"
		echo "$2" | sed 's/^/#   got:  /'
		echo "$3" | sed 's/^/#   want: /'
	fi
}
