#!/bin/sh
# make bench, inside a guest booted with possible_cpus=N: the kernel memory
# of the maps each ucounttop mode creates, while it runs. Per process, the
# maps it holds (the map_id of its descriptors, /proc/PID/fdinfo) and their
# memlock, as bpftool map show prints it; a ring buffer's data pages are
# counted as its max_entries where the kernel reports no memlock for it
# (before 6.4). Prints "MAPS POSSIBLE-CPUS MODE BYTES MAPS" lines and a
# table.
out=/tmp/bench-maps.txt
: > $out
possible=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))

# held PID: "BYTES MAPS" of the maps process PID holds
held() {
	for f in /proc/"$1"/fdinfo/*; do
		awk '/^map_id:/ { id = $2 } /^memlock:/ { m = $2 } /^map_type:/ { t = $2 }
			/^max_entries:/ { e = $2 }
			END { if (id) print id, (t == 27 && m < e) ? e : m }' "$f" 2> /dev/null
	done | sort -u -n | awk '{ s += $2; n++ } END { print s + 0, n + 0 }'
}

# mode NAME CMD...: CMD started, measured once it has attached
mode() {
	name=$1
	shift
	"$@" > /tmp/maps-tool.out 2> /tmp/maps-tool.err &
	pid=$!
	i=0
	# attached: its first table, or for trace and check their programs
	while [ $i -lt 600 ] && [ -z "$(grep -l '^prog_id:' /proc/$pid/fdinfo/* 2> /dev/null)" ]; do
		i=$((i + 1))
		sleep 0.1
	done
	sleep 2
	# check runs its command in a child: the ucounttop is the parent
	set -- $(held $pid)
	echo "MAPS $possible $name $1 $2" | tee -a $out
	kill -INT $pid 2> /dev/null
	wait $pid
}
mode live ucounttop -b -d 1
mode events ucounttop -b -d 1 --events
mode trace ucounttop trace
mode check ucounttop check -o /tmp/check.txt -- sleep 5
echo "maps held with $possible possible CPUs, kernel $(uname -r)"
