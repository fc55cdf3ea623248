#!/bin/sh
# 5F: -o FILE as a tenant could attack it. check runs CMD before it writes
# its report: a CMD that plants a symlink at FILE (to a file it wants
# root to overwrite) gets the link replaced, its target untouched. Both
# check's and the live view's -o honour the umask (077: 0600), as a
# shell's redirection would. A directory on the way that a tenant turned
# into a symlink is not followed, and a directory others may write
# without the sticky bit is refused, both saying why (exit 1).
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5f
rm -rf $T
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
mode() { stat -c %a "$1" 2> /dev/null; }

[ -x "$UCT" ] || { echo "# missing $UCT"; exit 4; }

echo untouched > $T/victim
$UCT check -o $T/report -- sh -c "ln -sf $T/victim $T/report" > /dev/null 2> $T/check.err
rc=$?
check "check -o: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... a symlink CMD planted at FILE: its target untouched" [ "$(cat $T/victim)" = untouched ]
check "... FILE is the report, a regular file" [ -f $T/report -a ! -L $T/report ]
check "... the report says so" grep -q 'ucounttop check' $T/report

# alice owns a directory on root's path and points "out" at root's own
mkdir -p $T/alice $T/rootdir
chown 1000:1000 $T/alice
su alice -s /bin/sh -c "ln -s $T/rootdir $T/alice/out"
$UCT -b -n 1 -o $T/alice/out/report > /dev/null 2> $T/link.err
rc=$?
check "-o through alice's symlinked directory: exit 1, naming the link (got $rc)" \
	[ $rc -eq 1 -a -n "$(grep 'a component of its directory is a symbolic link' $T/link.err)" ]
check "... nothing written where the link pointed" [ -z "$(ls -A $T/rootdir)" ]
mkdir -m 0777 $T/open
chmod 0777 $T/open
$UCT check -o $T/open/report -- true > /dev/null 2> $T/open.err
rc=$?
check "check -o into a world-writable directory without the sticky bit: exit 6, saying why (got $rc)" \
	[ $rc -eq 6 -a -n "$(grep 'others may write its directory, which has no sticky bit' $T/open.err)" ]
chmod 01777 $T/open
$UCT check -o $T/open/report -- true > /dev/null 2>&1
check "... with the sticky bit (as /tmp): exit 0 (got $?)" [ -f $T/open/report ]

(umask 077; $UCT check -o $T/report077 -- true > /dev/null 2>&1)
check "check -o under umask 077: mode 600 (got $(mode $T/report077))" [ "$(mode $T/report077)" = 600 ]
(umask 077; $UCT -b -n 1 -o $T/live077 > /dev/null 2>&1)
check "-o under umask 077: mode 600 (got $(mode $T/live077))" [ "$(mode $T/live077)" = 600 ]
(umask 022; $UCT -b -n 1 -o $T/live022 > /dev/null 2>&1)
check "-o under umask 022: mode 644 (got $(mode $T/live022))" [ "$(mode $T/live022)" = 644 ]
echo "1..$n"
