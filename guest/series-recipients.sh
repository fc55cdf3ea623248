#!/bin/bash
# series-recipients.sh KSRC PATCH...: the To: and Cc: a series of PATCHes
# goes to, as the tree's own scripts/get_maintainer.pl names them for all
# of them together (every patch of a series goes to everyone, so that each
# reader sees it whole): maintainers To:, reviewers and lists Cc:. Prints
# two lines, "To: ..." and "Cc: ...", addresses comma-separated, for
# `git format-patch --to/--cc` or for comparing with a patch's headers
# (tests/host/checkpatch.sh). Cc: stable is in the commit tags, not here.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: guest/series-recipients.sh KSRC PATCH..." >&2; exit 2; }
ksrc=$1
shift
for p; do
	case "$p" in /*) ;; *) p=$PWD/$p ;; esac
	set -- "$@" "$p"
	shift
done
gm() {
	# --nogit: the tree is a tarball; the Fixes: ids are not looked up
	(cd "$ksrc" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats \
		--nomultiline "$@" 2> /dev/null)
}
echo "To: $(gm --m --nol --nor "$@")"
echo "Cc: $(gm --nom --l --r "$@")"
