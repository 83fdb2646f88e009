#!/bin/bash
# The ring buffer's size: by default 16 MiB for a script on kernel
# events (512 KiB per possible CPU past 32 CPUs, at most 64 MiB) and
# 256 KiB for one of timers only, or whose kernel probes only aggregate; --ringbuf-size and
# BPFTRACE_PERF_RB_PAGES (pages per CPU, as bpftrace's perf buffer)
# choose another, rounded up to a power of two; the option wins; bad
# values are refused.  -v --dry-run says the size the map was made with.
set -u
fail=0
ncpus=$(awk -F- '{ print ($NF ~ /^[0-9]+$/ ? $NF + 1 : 1) }' /sys/devices/system/cpu/possible)
page=$(getconf PAGESIZE)
pow2() { local n=$page; while (( n < $1 )); do n=$((n * 2)); done; echo $n; }

size() {	# WANT ENV... -- SONDE-ARGS...: the made size must be WANT
	local want=$1 got envs=()
	shift
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	got=$(env "${envs[@]}" "$SONDE" --dry-run -v "$@" 2>&1 |
	      sed -n 's/^sonde: map sonde_events: type 27, key 0, value 0, \([0-9]*\) entries$/\1/p')
	[[ $got == "$want" ]] || { echo "sonde ${envs[*]} $*: size '$got', want $want"; fail=1; }
}
tp='tracepoint:syscalls:sys_enter_getppid { printf("x\n"); }'
def=$(( ncpus * 512 * 1024 )); (( def < 16 << 20 )) && def=$((16 << 20)); (( def > 64 << 20 )) && def=$((64 << 20))
size "$(pow2 $def)" -- -e "$tp"
size $((256 << 10)) -- -e 'interval:ms:10 { exit(); }'
# kernel probes that only aggregate send no records: a small ring
size $((256 << 10)) -- -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); @h = hist(pid); } interval:s:1 { print(@); exit(); }'
# one printf, however deep, is enough for the large one
size "$(pow2 $def)" -- -e 'tracepoint:syscalls:sys_enter_getppid { if (pid > 1) { @n++; if (@n > 5) { printf("x\n"); } } }'
size "$(pow2 $def)" -- -e 'tracepoint:syscalls:sys_enter_getppid /comm == "x"/ { time("%H\n"); }'
size $((4 << 20)) -- --ringbuf-size 3M -e "$tp"
size $((1 << 20)) -- --ringbuf-size 1m -e 'BEGIN { exit(); }'
size $((64 << 10)) -- --ringbuf-size 40000 -e "$tp"
size "$page" -- --ringbuf-size 1 -e "$tp"
size "$(pow2 $((64 * page * ncpus)))" BPFTRACE_PERF_RB_PAGES=64 -- -e "$tp"
size "$(pow2 $((3 * page * ncpus)))" BPFTRACE_PERF_RB_PAGES=3 -- -e "$tp"
size $((2 << 20)) BPFTRACE_PERF_RB_PAGES=64 -- --ringbuf-size 2M -e "$tp"

bad() {	# MESSAGE ENV... -- ARGS...: refused with MESSAGE, status 1
	local want=$1 envs=() got rc
	shift
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	got=$(env "${envs[@]}" "$SONDE" "$@" -e 'BEGIN { exit(); }' 2>&1)
	rc=$?
	[[ $rc == 1 && $got == "$want" ]] || { echo "sonde ${envs[*]} $*: status $rc, '$got', want '$want'"; fail=1; }
}
for v in 0 2G 1025M abc 5X -3; do
	bad "sonde: --ringbuf-size takes a size from 1 to 1G (bytes, or with K, M or G), not '$v'" -- --ringbuf-size "$v"
done
for v in 0 x 262145; do
	bad "sonde: BPFTRACE_PERF_RB_PAGES=$v is not a number in 1..262144" BPFTRACE_PERF_RB_PAGES=$v --
done
exit $fail
