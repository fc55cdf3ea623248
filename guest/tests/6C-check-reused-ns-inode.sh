#!/bin/sh
# check's rows are (namespace inode, uid), and a namespace that dies while
# CMD runs gives its inode number back for the next one. Under check, CMD
# makes namespace P (which lives on), then A beside it (which dies), then
# B inside P, which gets A's inode back at another level and parent, and
# has uct_fault leak 3 processes to its (ns, uid 0) row; P and B are held
# past CMD's end. The one failing finding is that lost uncharge, at B's
# level (the holders' charges are outstanding): A's passing under the
# same number is no finding. KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
load_module
rm -f /tmp/6C.*
cat > /tmp/6C.cmd <<EOS
unshare -U -r sh -c 'readlink /proc/self/ns/user > /tmp/6C.P
	sleep 1.5
	unshare -U -r sh -c "readlink /proc/self/ns/user > /tmp/6C.B
		echo leak nproc 3 > $I && echo done > /tmp/6C.leaked
		sleep 1000 & echo \\\$! > /tmp/6C.kid; wait" &
	sleep 1000 & echo \$! > /tmp/6C.pkid; wait' &
sleep 0.3
unshare -U -r sh -c 'readlink /proc/self/ns/user > /tmp/6C.A; sleep 0.2'
i=0
while [ ! -s /tmp/6C.leaked ] || [ ! -s /tmp/6C.kid ]; do
	[ \$i -gt 100 ] && exit 1
	sleep 0.1; i=\$((i + 1))
done
EOS
$U check --json -o $J -- sh /tmp/6C.cmd
rc=$?
a=$(tr -dc 0-9 < /tmp/6C.A) b=$(tr -dc 0-9 < /tmp/6C.B)
check "B got A's namespace inode back (A $a, B $b)" [ -n "$a" ] && [ "$a" = "$b" ]
want="{\"class\":\"lost_uncharge\",\"failing\":true,\"ns\":$b,\"level\":2,\"uid\":0,\"type\":\"nproc\",\"amount\":3,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "lost-uncharge at ns $b level 2 (B's) uid 0, nproc, amount 3" has_finding "$want"
# the rest is what the live holders keep: outstanding, not failing
check "the other findings are outstanding charges, at P's and B's levels" \
	[ "$(each_finding | grep -v '"class":"outstanding","failing":false,' | wc -l | tr -d ' ')" = 1 ]
check "no finding at A's level 1 under the number B reused" \
	[ -z "$(each_finding | grep "\"ns\":$b,\"level\":1,")" ]
kill $(cat /tmp/6C.kid /tmp/6C.pkid 2> /dev/null) 2> /dev/null
i=0
while [ -d /proc/$(cat /tmp/6C.pkid) ] && [ $i -lt 50 ]; do usleep 100000; i=$((i + 1)); done
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
