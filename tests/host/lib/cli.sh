# The host suites that run ucounttop without loading BPF (sourced after
# lib/tap.sh): $bin, UCT_BIN or the host build in UCT_OUT (made here: ok,
# or not ok and the suite ends when it does not build), and $guard, a
# command prefix with no capability in any set and none to gain from an
# exec (no_new_privs), so that what runs under it can never load BPF.
bin=${UCT_BIN:-$UCT_OUT/cli/ucounttop}
if [ -z "${UCT_BIN:-}" ]; then
	if make -s -C "$UCT_ROOT/cli" OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX" > "$tmp/build" 2>&1; then
		ok "ucounttop builds on the host"
	else
		nok "ucounttop builds on the host"
		tail -n 20 "$tmp/build" | diag
		finish
	fi
fi
guard=(setpriv --no-new-privs --inh-caps=-all --ambient-caps=-all)
[ "$(id -u)" = 0 ] && guard+=(--bounding-set=-all)
