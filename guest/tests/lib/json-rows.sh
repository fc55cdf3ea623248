# Reading ucounttop's --json documents (and --listen's container
# families) in the guest tests (sourced):
# row FILE NS UID: the row object of (namespace inode, kuid) in FILE's
# document, on a line of its own (empty when there is none)
row() { sed 's/{"ns":/\n{"ns":/g' "$1" | grep "^{\"ns\":$2,\"level\":[0-9]*,\"uid\":$3,"; }
# field ROWTEXT TYPE KEY: that row's KEY for TYPE (e.g. nproc denials)
field() { echo "$1" | sed -n "s/.*\"$2\":{[^}]*\"$3\":\([-0-9]*\).*/\1/p"; }
# misses FILE: the runs of ucounttop's programs the kernel skipped and
# reported (counters.recursion_misses) by FILE's document
misses() { grep -o '"recursion_misses":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }
# share ROWTEXT ID: "processes nproc-denials" of container ID's share of
# a shared row (empty when it has none)
share() {
	echo "$1" | sed 's/],"other":.*//; s/{"container_id":/\n&/g' |
		grep "^{\"container_id\":\"$2\"" |
		sed -n 's/.*"processes":\([0-9]*\),"denials":{"nproc":\([0-9]*\),.*/\1 \2/p'
}
# refreshed FILE PATTERN N: FILE has at least N lines matching PATTERN
# (waitfor refreshed $T/live.txt NPROC K: K tables written)
refreshed() { [ "$(grep -c "$2" "$1")" -ge "$3" ]; }
# om_share FILE NS UID ID: the same of a --listen document's container
# families (ucounttop_container_nproc_processes, _denials_total)
om_share() {
	echo "$(sed -n "s/^ucounttop_container_nproc_processes{ns=\"$2\",kuid=\"$3\",container_id=\"$4\"} \([0-9]*\)\$/\1/p" "$1")" \
	     "$(sed -n "s/^ucounttop_container_denials_total{ns=\"$2\",kuid=\"$3\",container_id=\"$4\",type=\"nproc\"} \([0-9]*\)\$/\1/p" "$1")"
}
