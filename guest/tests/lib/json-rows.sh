# Reading ucounttop --json documents in the guest tests (sourced):
# row FILE NS UID: the row object of (namespace inode, kuid) in FILE's
# document, on a line of its own (empty when there is none)
row() { sed 's/{"ns":/\n{"ns":/g' "$1" | grep "^{\"ns\":$2,\"level\":[0-9]*,\"uid\":$3,"; }
# field ROWTEXT TYPE KEY: that row's KEY for TYPE (e.g. nproc denials)
field() { echo "$1" | sed -n "s/.*\"$2\":{[^}]*\"$3\":\([-0-9]*\).*/\1/p"; }
# misses FILE: the runs of ucounttop's programs the kernel skipped and
# reported (counters.recursion_misses) by FILE's document
misses() { grep -o '"recursion_misses":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }
