# What the container engines' guest tests (5K, 5L, 5M) share; sourced
# after ktap.sh.
# quiet CMD...: CMD, its output dropped
quiet() { "$@" > /dev/null 2>&1; }
# answers NAME LOG CMD...: wait until CMD succeeds (daemon NAME answers);
# when it never does, fail, show the tail of its LOG and end the test
answers() {
	_name=$1 _log=$2
	shift 2
	if ! waitfor 400 quiet "$@"; then
		fail "$_name answers"
		tail -n 20 "$_log" | sed 's/^/# /'
		echo "1..$n"
		exit 1
	fi
	pass "$_name answers"
}
