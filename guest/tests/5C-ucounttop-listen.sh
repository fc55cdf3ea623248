#!/bin/sh
# 5C: ucounttop --listen ADDR:PORT over loopback, busybox wget and nc as
# the clients: the text format 0.0.4 by default and OpenMetrics to
# Prometheus' Accept header, with their Content-Types; 404, 405, HEAD, an
# oversized request; a snapshot per scrape (a workload started between two
# scrapes is in the second, gone from a third after it ended) and the same
# document within -d (a workload ended after the snapshot is still in
# it); address errors (2), a port in use (1) and, without IPv6, [::1] (4);
# every address (:PORT) over IPv4 and IPv6, and the landing page at /;
# slow clients, who cannot keep a scrape from being answered;
# SIGTERM ends it with exit 0, no pin and no program left. The documents
# of one snapshot go to the host ($UCT_EXPORT/listen, guest/run --export)
# for tests/host/openmetrics-endpoint.sh.
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
BPFTOOL=${BPFTOOL:-/usr/sbin/bpftool}
T=/tmp/t5c
PORT=9465
URL=http://127.0.0.1:$PORT/metrics
PIN=/sys/fs/bpf/uct5b
# what Prometheus 2.42 sends
PROM='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
TEXT_CT='Content-Type: text/plain; version=0.0.4; charset=utf-8'
OM_CT='Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8'
rm -rf $T
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
# checke NAME 'SHELL CONDITION'
checke() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
# status FILE: the status code of the HTTP response in FILE (nc's)
status() { head -n 1 "$1" | cut -d' ' -f2; }
has() { grep -qF -- "$2" "$1"; }
[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf

# serve NAME OPTIONS...: start ucounttop --listen in the background ($u),
# wait until it says it serves
serve() {
	name=$1; shift
	# gone first: the shell truncates it in the child, maybe after the
	# loop below has read an earlier run's "serving"
	rm -f $T/$name.err
	$UCT "$@" 2> $T/$name.err &
	u=$!
	i=0
	while ! grep -q '^ucounttop: serving http://' $T/$name.err; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $u 2>/dev/null; then
			cat $T/$name.err
			return 1
		fi
		sleep 0.1
	done
}
# get FILE [wget options]: GET $URL into FILE, the response headers into
# FILE.h (wget -S prints them indented, on stderr)
get() {
	f=$1; shift
	timeout 60 wget -q -S -O $f "$@" $URL 2> $f.h
}
# raw FILE: stdin as the request, by nc; the response in FILE
raw() {
	timeout 60 nc 127.0.0.1 $PORT > $1
}
# workload FILE [--denials]: uct-workload in the background ($w), until READY
workload() {
	f=$1; shift
	$WL "$@" > $f 2> $f.err &
	w=$!
	i=0
	while ! grep -q '^READY' $f; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $w 2>/dev/null; then
			cat $f.err
			return 1
		fi
		sleep 0.2
	done
}
# samples DOC WL: every EXPECT line of the workload's output WL is in DOC,
# as the four rlimits' samples, each family in its unit (memlock: EXPECT's
# pages in bytes); prints misses
PAGE=$(getconf PAGESIZE 2> /dev/null || echo 4096)
samples() {
	grep '^EXPECT ' $2 | while read -r _ ns lvl uid np mq sp ml; do
		for tv in nproc_processes:$np msgqueue_bytes:$mq sigpending_signals:$sp \
			  memlock_bytes:$((ml * PAGE)); do
			s="ucounttop_${tv%:*}{ns=\"$ns\",level=\"$lvl\",kuid=\"$uid\"} ${tv#*:}"
			grep -qxF "$s" $1 || echo "# missing: $s"
		done
	done
}
# none DOC WL: no sample of the workload's namespaces (level > 0) in DOC
none() {
	grep '^NS ' $2 | while read -r _ _ ns lvl _; do
		[ "$lvl" -gt 0 ] && grep -q "{ns=\"$ns\"," $1 && echo "# still there: namespace $ns"
	done
}
ours() { $BPFTOOL prog show 2>&1 | grep -E 'tp_refused|overlimit_exit|snap_task|snap_ucounts'; }
# the kernel frees a closed program after an RCU grace period, later on a
# loaded machine: wait for it, bounded (30 s)
detached() {
	i=0
	while [ -n "$(ours)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -z "$(ours)" ]
}

# ---- what is refused before anything is loaded
for a in 127.0.0.1 localhost:$PORT 127.0.0.1:0 127.0.0.1:65536 ::1:$PORT; do
	$UCT --listen $a > /dev/null 2> $T/bad.err
	rc=$?
	check "--listen $a: usage error, exit 2 (got $rc)" [ $rc -eq 2 ]
done
for o in --json --openmetrics -b "-n 1" "-o $T/x"; do
	# shellcheck disable=SC2086 # two words
	$UCT --listen 127.0.0.1:$PORT $o > /dev/null 2> $T/bad.err
	rc=$?
	checke "--listen with $o: exit 2 (got $rc), saying so" \
		'[ $rc -eq 2 ] && has $T/bad.err "it does not combine with ${o% *}"'
done
$UCT trace --listen 127.0.0.1:$PORT > /dev/null 2> $T/bad.err
rc=$?
checke "trace --listen: exit 2 (got $rc)" \
	'[ $rc -eq 2 ] && has $T/bad.err "--listen applies to the live view only"'

# ---- libmicrohttpd is loaded for --listen alone (cli/http/mhd.h): without it,
# --listen exits 4 naming it, before binding; the live view runs as ever
mhd=$(ls /usr/lib/*/libmicrohttpd.so.[0-9]* /lib/*/libmicrohttpd.so.[0-9]* 2> /dev/null |
	grep -E 'so\.[0-9]+$' | head -n 1)
check "libmicrohttpd's soname link is in the guest ($mhd)" [ -n "$mhd" ]
if [ -n "$mhd" ] && mv "$mhd" "$mhd.away"; then
	$UCT --listen 127.0.0.1:$PORT > /dev/null 2> $T/nolib.err
	rc=$?
	checke "--listen without libmicrohttpd: exit 4 (got $rc), naming it" \
		'[ $rc -eq 4 ] && has $T/nolib.err "--listen needs libmicrohttpd (${mhd##*/}"'
	$UCT -b -n 1 > /dev/null 2> $T/nolib.err
	rc=$?
	check "the live view without libmicrohttpd: exit 0 (got $rc)" [ $rc -eq 0 ]
	mv "$mhd.away" "$mhd"
fi

# ---- a snapshot per scrape: -d 0.01
if ! serve fresh --listen 127.0.0.1:$PORT -d 0.01 --pin $PIN; then
	nok "ucounttop --listen 127.0.0.1:$PORT -d 0.01 serves"
	echo "1..$n"
	exit 1
fi
ok "ucounttop --listen 127.0.0.1:$PORT -d 0.01 serves"
fresh=$u

$UCT --listen 127.0.0.1:$PORT > /dev/null 2> $T/busy.err
rc=$?
check "a second ucounttop on the port: exit 1 (got $rc)" [ $rc -eq 1 ]
check "... naming the address and the reason" \
	has $T/busy.err "ucounttop: --listen 127.0.0.1:$PORT: cannot bind: Address already in use"

get $T/text1
rc=$?
check "GET /metrics: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... 200" has $T/text1.h 'HTTP/1.1 200 OK'
check "... $TEXT_CT" has $T/text1.h "$TEXT_CT"
check "... root's nproc sample" \
	grep -q '^ucounttop_nproc_processes{ns="[0-9]*",level="0",kuid="0"} [1-9][0-9]*$' $T/text1
check "... a counter's TYPE names its samples (text 0.0.4)" \
	grep -qx '# TYPE ucounttop_denials_total counter' $T/text1
check "... no '# EOF'" [ -z "$(grep '^# EOF' $T/text1)" ]

get $T/om1 --header "Accept: $PROM"
rc=$?
check "GET /metrics with Prometheus' Accept: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... $OM_CT" has $T/om1.h "$OM_CT"
check "... the family in a counter's TYPE (OpenMetrics)" \
	grep -qx '# TYPE ucounttop_denials counter' $T/om1
check "... a family's UNIT (OpenMetrics only)" \
	[ "$(grep -cx '# UNIT ucounttop_memlock_bytes bytes' $T/om1) $(grep -c '^# UNIT ' $T/text1)" = "1 0" ]
check "... the exporter's build_info, scrape errors (none) and snapshot time" \
	[ "$(grep -c '^ucounttop_build_info{version="[0-9.]*",snapshot="iter/[a-z]*",hooks="[^"]*"} 1$' $T/om1) $(grep -cx 'ucounttop_scrape_errors_total 0' $T/om1) $(grep -c '^ucounttop_last_snapshot_timestamp_seconds [1-9][0-9]*\.[0-9]*$' $T/om1)" = "1 1 1" ]
check "... ends with '# EOF'" [ "$(tail -n 1 $T/om1)" = "# EOF" ]

timeout 60 wget -q -O /dev/null http://127.0.0.1:$PORT/index.html 2> $T/404.err
check "GET /index.html: 404" has $T/404.err 'HTTP/1.1 404 '
timeout 60 wget -q -O /dev/null --post-data x $URL 2> $T/405.err
check "POST /metrics: 405" has $T/405.err 'HTTP/1.1 405 '
printf 'DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' | raw $T/delete
checke "DELETE /metrics (nc): 405 with Allow: GET, HEAD" \
	'[ "$(status $T/delete)" = 405 ] && has $T/delete "Allow: GET, HEAD"'
{
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: '
	head -c 20000 /dev/zero | tr '\0' a
	printf '\r\n\r\n'
} | raw $T/big
# the server answers 431 and closes with the rest of the request unread,
# which resets the connection: on a loaded machine the reset can overtake
# the answer. Refused either way, never served; the next request is.
st=$(status $T/big)
checke "a request with 20000 bytes of headers: refused, 431 or reset (got '${st:-reset}')" \
	'[ "$st" = 431 ] || [ -z "$st" ]'
timeout 60 wget -q -O /dev/null $URL 2> $T/after-big.err
check "... and the next request is served" [ $? -eq 0 ]

if workload $T/wl; then
	get $T/text2
	miss=$(samples $T/text2 $T/wl)
	check "a scrape after the workload started: all its rows, all four values" [ -z "$miss" ]
	[ -z "$miss" ] || echo "$miss"
	miss=$(none $T/text1 $T/wl)
	check "... none of them in the scrape before" [ -z "$miss" ]
	kill $w
	wait $w
	# the kernel frees a namespace after its last holder, in a work item:
	# scrape until it is gone, each scrape a snapshot of its own
	i=0
	while :; do
		get $T/text3 || { miss="# GET failed"; break; }
		miss=$(none $T/text3 $T/wl)
		if [ -z "$miss" ] || [ $i -ge 100 ]; then
			break
		fi
		i=$((i + 1))
		sleep 0.2
	done
	check "scrapes after it ended: its namespaces gone (after $i more)" [ -z "$miss" ]
	[ -z "$miss" ] || echo "$miss"
else
	nok "uct-workload ready"
fi

kill -TERM $fresh
wait $fresh
rc=$?
check "SIGTERM: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... pins removed" [ ! -e $PIN ]
check "... programs detached" detached

# ---- the same document within -d: one snapshot for all of these
if ! serve cached --listen 127.0.0.1:$PORT -d 600 --events; then
	nok "ucounttop --listen 127.0.0.1:$PORT -d 600 --events serves"
	echo "1..$n"
	exit 1
fi
ok "ucounttop --listen 127.0.0.1:$PORT -d 600 --events serves"
cached=$u
if workload $T/wld --denials; then
	get $T/text
	get $T/om --header "Accept: $PROM"
	miss=$(samples $T/text $T/wld)
	check "-d 600: the first scrape has the workload's rows" [ -z "$miss" ]
	[ -z "$miss" ] || echo "$miss"
	# shellcheck disable=SC2046 # the words of one line
	set -- $(grep '^DENY .* nproc ' $T/wld)
	check "... and its $5 refused forks as ucounttop_denials_total" \
		grep -qxF "ucounttop_denials_total{ns=\"$2\",level=\"1\",kuid=\"$3\",type=\"nproc\"} $5" $T/text
	kill $w
	wait $w
	get $T/text.again
	check "... a scrape after the workload ended: the same document" cmp -s $T/text $T/text.again
	check "... the OpenMetrics one: the same samples" \
		[ "$(grep -v '^#' $T/om)" = "$(grep -v '^#' $T/text)" ]
	printf 'HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' | raw $T/head
	len=$(tr -d '\r' < $T/head | sed -n 's/^Content-Length: //p')
	checke "HEAD /metrics (nc): 200, the document's length ($len), no body" \
		'[ "$(status $T/head)" = 200 ] && [ "$len" = "$(wc -c < $T/text)" ] &&
		 [ -z "$(grep "^# TYPE" $T/head)" ]'
	if [ -n "$UCT_EXPORT" ]; then
		mkdir -p $UCT_EXPORT/listen
		cp $T/text $UCT_EXPORT/listen/text-0.0.4.txt
		cp $T/om $UCT_EXPORT/listen/openmetrics-1.0.0.txt
		cp $T/text1 $UCT_EXPORT/listen/text-0.0.4-idle.txt
		cp $T/om1 $UCT_EXPORT/listen/openmetrics-1.0.0-idle.txt
	fi
else
	nok "uct-workload --denials ready"
fi
kill -INT $cached
wait $cached
rc=$?
check "SIGINT: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... programs detached" detached

# ---- SIGHUP reads a web configuration again (ucounttop(8)); without one
# it does nothing: the server goes on, SIGTERM ends it
if serve hup --listen 127.0.0.1:$PORT; then
	kill -HUP $u
	sleep 1
	get $T/hup.doc
	rc=$?
	check "SIGHUP without a web configuration: still serving (wget $rc)" \
		[ $rc -eq 0 -a -s $T/hup.doc ]
	kill -TERM $u
	wait $u
	rc=$?
	check "... then SIGTERM: exit 0 (got $rc)" [ $rc -eq 0 ]
	check "... programs detached" detached
else
	nok "ucounttop --listen 127.0.0.1:$PORT serves (for SIGHUP)"
fi

# ---- slow clients: 16 connections (the most served at once) that send a
# header line every 2 s and never end their headers, from the scraper's
# own address. One address holds 4 at most: each newcomer takes the place
# of the one that has waited longest for its headers, so 4 are held and 12
# closed; each held one is shut down 5 s after it connected. Three scrapes
# from that address while they trickle are each answered at the first try
# (a scrape's connection takes a trickler's place; its headers are in at
# once, and no newcomer closes it). Bounds, not timings: 10 s for each
# scrape, 20 s for the slow clients to be gone.
if serve slow --listen 127.0.0.1:$PORT; then
	trickle() {
		printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n'
		for i in $(seq 40); do sleep 2; printf 'X-Slow-%d: a\r\n' $i; done
	}
	slow=
	for i in $(seq 16); do
		trickle | nc 127.0.0.1 $PORT > /dev/null 2>&1 &
		slow="$slow $!"
	done
	sleep 1
	# the server's end of each connection it holds: ESTABLISHED (01), on
	# its port as the local one (the closed clients' ends linger in
	# CLOSE_WAIT until they next write)
	hexport=$(printf '%04X' $PORT)
	held=$(awk -v p=":$hexport" 'substr($2, length($2) - 4) == p && $4 == "01"' /proc/net/tcp | wc -l)
	check "16 slow clients from one address: 4 held, the others closed (held $held)" [ $held -eq 4 ]
	answered=0
	for i in 1 2 3; do
		rm -f $T/slow.doc
		timeout 10 wget -q -O $T/slow.doc $URL 2> /dev/null &&
			grep -q '^ucounttop_nproc_processes{' $T/slow.doc && answered=$((answered + 1))
		# the next scrape while tricklers from this address are still held
		trickle | nc 127.0.0.1 $PORT > /dev/null 2>&1 &
		slow="$slow $!"
		sleep 0.5
	done
	check "... 3 of 3 scrapes from that address answered at the first try while they trickle ($answered)" [ $answered -eq 3 ]
	i=0
	while :; do
		left=0
		for p in $slow; do kill -0 $p 2> /dev/null && left=$((left + 1)); done
		[ $left -eq 0 ] || [ $i -ge 200 ] && break
		i=$((i + 1)); sleep 0.1
	done
	check "... every slow client is disconnected, headers unfinished ($left left)" [ $left -eq 0 ]
	kill $slow 2> /dev/null
	kill $u
	wait $u
else
	nok "ucounttop --listen 127.0.0.1:$PORT serves (for slow clients)"
fi

# ---- IPv6: served where the kernel has it (Debian's), refused where not (ours)
if [ -e /proc/net/if_inet6 ]; then
	if serve v6 --listen "[::1]:$PORT"; then
		timeout 60 wget -q -O $T/v6 "http://[::1]:$PORT/metrics" 2> $T/v6.h
		check "--listen [::1]:$PORT: GET over IPv6" grep -q '^ucounttop_nproc_processes{' $T/v6
		kill $u
		wait $u
	else
		nok "--listen [::1]:$PORT serves"
	fi
else
	$UCT --listen "[::1]:$PORT" > /dev/null 2> $T/v6.err
	rc=$?
	check "--listen [::1]:$PORT without IPv6 in the kernel: exit 4 (got $rc)" [ $rc -eq 4 ]
	check "... saying so" has $T/v6.err "--listen [::1]:$PORT: this kernel has no IPv6 (CONFIG_IPV6)"
fi

# ---- every address (:PORT), as exporters take it: IPv4's loopback, and
# IPv6's where the kernel has it (IPv4's every address where not); / is a
# page that links /metrics
if serve any --listen ":$PORT"; then
	timeout 60 wget -q -O $T/any "http://127.0.0.1:$PORT/metrics" 2> /dev/null
	check "--listen :$PORT: GET over IPv4" grep -q '^ucounttop_nproc_processes{' $T/any
	if [ -e /proc/net/if_inet6 ]; then
		timeout 60 wget -q -O $T/any6 "http://[::1]:$PORT/metrics" 2> /dev/null
		check "... and over IPv6" grep -q '^ucounttop_nproc_processes{' $T/any6
		check "... serving [::]:$PORT" has $T/any.err "serving http://[::]:$PORT/metrics"
	else
		check "... serving 0.0.0.0:$PORT: a kernel without IPv6" \
			has $T/any.err "serving http://0.0.0.0:$PORT/metrics"
	fi
	timeout 60 wget -q -S -O $T/landing "http://127.0.0.1:$PORT/" 2> $T/landing.h
	check "GET /: 200, a page that links /metrics" \
		eval "has $T/landing.h 'HTTP/1.1 200 ' && has $T/landing '<a href=\"/metrics\">'"
	kill $u
	wait $u
else
	nok "--listen :$PORT serves"
fi
echo "1..$n"
