# The tools the host suites read with (sourced after lib/tap.sh): Debian's
# python3, whose python3-yaml and python3-prometheus-client are Debian
# packages (a python3 earlier in PATH, pyenv's say, would not have them),
# and promtool, which guest/deps.sh unpacks from Debian's prometheus .deb
# (one in PATH is used as it is).
PY=${PYTHON:-/usr/bin/python3}
PROMTOOL=${PROMTOOL:-$(command -v promtool || echo "$CACHE_DIR/promtool/promtool")}
# free_port: a port of the loopback no one listens on now
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# need_python_module MODULE PACKAGE: not ok, and the suite ends, without it
need_python_module() {
	if [ ! -x "$PY" ] || ! "$PY" -c "import $1" 2> /dev/null; then
		nok "$2 is installed (guest/deps.sh)"
		finish
	fi
}
# need_promtool: not ok, and the suite ends, without it
need_promtool() {
	if [ ! -x "$PROMTOOL" ]; then
		nok "promtool is at $PROMTOOL (guest/deps.sh unpacks it)"
		finish
	fi
}
