#!/bin/bash
# kill -9 of sonde mid-trace leaves no program and no probe behind:
# every attachment is owned by a file descriptor the kernel closes.
set -u
progs=$SONDE_PROGS/bpfprogs
[[ -x $progs ]] || { echo "no $progs (make progs)"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.before"' EXIT
"$SONDE" -e 'BEGIN { printf("ready\n"); }
	tracepoint:syscalls:sys_enter_getppid { @t = count(); }
	uprobe:libc:getpid { @u = count(); }
	profile:hz:50 { @p = count(); }
	interval:ms:100 { @i = count(); }' > "$out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q ready "$out" && break; sleep 0.05; done
grep -q ready "$out" || { echo "sonde did not start: $(cat "$out")"; kill -9 $pid; exit 1; }
# its programs, by the ids in its fds' fdinfo (other tracers may run)
ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u)
n=$(wc -w <<<"$ids")
(( n >= 5 )) || { echo "expected sonde's 5 programs in its fds, got $n"; kill -9 $pid; exit 1; }
"$progs" | awk '{ print $1 }' | sort -u > "$out.before"
for id in $ids; do
	grep -qx "$id" "$out.before" || { echo "program $id not listed"; kill -9 $pid; exit 1; }
done
kill -9 $pid
wait $pid 2>/dev/null
# ...and gone once the kernel has closed its fds
for _ in $(seq 50); do
	left=$("$progs" | awk '{ print $1 }' | sort -u | comm -12 - <(tr ' ' '\n' <<<"$ids" | sort -u) | wc -l)
	(( left == 0 )) && break
	sleep 0.1
done
(( left == 0 )) || { echo "programs left after kill -9: $left"; "$progs"; exit 1; }
if [[ -r /sys/kernel/tracing/uprobe_events ]] && [[ -s /sys/kernel/tracing/uprobe_events ]]; then
	echo "uprobe_events not empty:"; cat /sys/kernel/tracing/uprobe_events; exit 1
fi
exit 0
