# bash completion for ucounttop(8)                      -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
#
# Commands, the options each command accepts (the same scopes as
# cli/opts.c: an option given to the wrong command is a usage error, so it
# is not offered there), option values, and after `check [options] [--]`
# the command to run and its own arguments (with --kselftest, directories). Needs nothing but bash; uses
# bash-completion's _command_offset for check's CMD when it is loaded.
#
#   . cli/completion/ucounttop.bash     # or install it as
#   /usr/share/bash-completion/completions/ucounttop

_ucounttop_opts_top='-d --delay -n --iterations -b --batch --json --openmetrics --prometheus
	-o --output --listen --web.config.file --ns --uid --pid --container --kuid -t --type -s --sort --events --pin --keep-pinned
	--max-entries --task-iter --no-tracepoints --no-tenant-labels --run-as -v --verbose -h --help
	-V --version'
_ucounttop_opts_trace='--stack --ns --uid -t --type --count --duration
	--ringbuf-kb --pin --keep-pinned --max-entries --no-tracepoints
	-w --write -r --read -v --verbose -h --help -V --version'
_ucounttop_opts_check='--json --ktap --kselftest -o --output --settle --timeout --user --fail-outstanding
	--max-entries --task-iter --no-tracepoints -v --verbose -h --help
	-V --version --'
# options that take a value (the next word, or --opt=value)
_ucounttop_with_arg='-d|--delay|-n|--iterations|-o|--output|--listen|--web.config.file|--ns|--uid|--pid|--container|-t|--type|-s|--sort|--pin|--max-entries|--ringbuf-kb|--count|--duration|--settle|--timeout|--user|--run-as|-w|--write|-r|--read'

# _ucounttop_reply WORDS...: COMPREPLY = the WORDS that start with $cur
_ucounttop_reply() {
	local w
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
}

_ucounttop() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' cmd=top first=1 opts i w
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# --opt=value: bash splits it at '=' (COMP_WORDBREAKS)
	if [ "$cur" = = ] && [[ $prev == --* ]]; then
		cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -gt 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi

	# the command is the first argument, or none (the live view)
	case ${COMP_WORDS[1]-} in
	trace|check|top)
		if [ "$COMP_CWORD" -gt 1 ]; then
			cmd=${COMP_WORDS[1]}
			first=2
		fi
		;;
	esac

	# check: options end at `--` or at the first word that is not one;
	# from there on the words are CMD's
	if [ "$cmd" = check ]; then
		local ksft=
		for ((i = first; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			[ "$w" = --kselftest ] && ksft=1
			if [ "$w" = -- ]; then
				i=$((i + 1))
				break
			elif [ "$w" = = ]; then
				continue
			elif [[ $w =~ ^($_ucounttop_with_arg)$ ]]; then
				# its value, unless given as --opt=value
				[ "${COMP_WORDS[i + 1]-}" = = ] && i=$((i + 1))
				i=$((i + 1))
			elif [[ $w != -* ]]; then
				break
			fi
		done
		if [ "$i" -lt "$COMP_CWORD" ] || { [ "$i" -eq "$COMP_CWORD" ] &&
			[ "${COMP_WORDS[i - 1]-}" = -- ]; }; then
			if [ -n "$ksft" ]; then
				# the collections' directories
				compopt -o filenames 2> /dev/null
				mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			elif [ "$i" -eq "$COMP_CWORD" ]; then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			elif declare -F _command_offset > /dev/null; then
				_command_offset "$i"
			else
				compopt -o filenames 2> /dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			fi
			return 0
		fi
	fi

	case $cmd in
	trace) opts=$_ucounttop_opts_trace ;;
	check) opts=$_ucounttop_opts_check ;;
	*) opts=$_ucounttop_opts_top ;;
	esac
	# a value, for an option this command takes
	for w in $opts; do
		[ "$w" = "$prev" ] && break
	done
	[ "$w" = "$prev" ] || prev=''

	case $prev in
	-o|--output|--web.config.file|-w|--write|-r|--read)
		compopt -o filenames 2> /dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	--pin)
		compopt -o filenames 2> /dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0
		;;
	-t|--type)
		_ucounttop_reply nproc msgqueue sigpending memlock
		return 0
		;;
	-s|--sort)
		_ucounttop_reply uid nproc msgqueue sigpending memlock denials change
		return 0
		;;
	--ns)
		# the user namespaces of the running processes
		local l inums=()
		for l in /proc/[0-9]*/ns/user; do
			l=$(readlink "$l" 2> /dev/null) || continue
			l=${l#user:[}
			inums+=("${l%]}")
		done
		mapfile -t inums < <(printf '%s\n' "${inums[@]}" | sort -u)
		_ucounttop_reply "${inums[@]}"
		return 0
		;;
	--pid)
		local pids=(/proc/[0-9]*)
		_ucounttop_reply "${pids[@]#/proc/}"
		return 0
		;;
	--container)
		# the short ids of the containers processes run in, as the
		# table shows them (their cgroup paths, as ucounttop reads them)
		local f l ids=() re='(^|/|docker-|libpod-|cri-containerd-|crio-)([0-9a-f]{64})(\.scope)?(/|$)'
		for f in /proc/[0-9]*/cgroup; do
			while read -r l; do
				[[ ${l#0::} =~ $re ]] && ids+=("${BASH_REMATCH[2]:0:12}")
			done < "$f" 2> /dev/null
		done
		mapfile -t ids < <(printf '%s\n' "${ids[@]}" | sort -u)
		_ucounttop_reply "${ids[@]}"
		return 0
		;;
	--uid)
		local uids
		mapfile -t uids < <(cut -d: -f3 /etc/passwd 2> /dev/null | sort -nu)
		_ucounttop_reply "${uids[@]}"
		return 0
		;;
	--listen)
		# the loopback addresses; any other is the user's to type
		_ucounttop_reply 127.0.0.1: '[::1]:'
		compopt -o nospace 2> /dev/null
		return 0
		;;
	--ringbuf-kb)
		_ucounttop_reply 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 \
			32768 65536 131072 262144 524288 1048576
		return 0
		;;
	-d|--delay|-n|--iterations|--max-entries|--count|--duration|--settle|--timeout)
		return 0	# a number
		;;
	--user|--run-as)
		mapfile -t COMPREPLY < <(compgen -u -- "$cur")
		return 0
		;;
	esac

	if [[ $cur == -* ]]; then
		# shellcheck disable=SC2086 # a list of words
		_ucounttop_reply $opts
	elif [ "$COMP_CWORD" -eq 1 ]; then
		_ucounttop_reply trace check top
	elif [ "$cmd" = check ]; then
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
	fi
	return 0
}
complete -F _ucounttop ucounttop
