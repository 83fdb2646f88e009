#!/bin/bash
# bench/bench.sh (make bench): sonde against bpftrace (when installed) on
# the same workloads, same run; medians of several runs, and the
# sonde/bpftrace ratio.  Public tools only: /usr/bin/time, a load
# generator (bench/load.c).  Run as root.
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-./sonde}
RUNS=${RUNS:-7}
BPFTRACE=$(command -v bpftrace || true)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -o "$out/load" bench/load.c || exit 1

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0 || s == "-") print "-"; else printf "%.3g\n", s / b }'; }
row() { printf '%-44s %14s %14s %10s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }

# wall milliseconds (from date, as /usr/bin/time rounds to 10 ms) and
# peak RSS in KiB (from /usr/bin/time) of one command: "ms kib"
measure() {
	local t0 t1 kib
	t0=$(date +%s%N)
	kib=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1)
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 10000 ))e-2 $kib"
}

start() {	# tool: median wall ms and RSS KiB of BEGIN { exit(); }
	local tool=$1 i
	for i in $(seq "$RUNS"); do measure "$tool" -e 'BEGIN { exit(); }'; done > "$out/start.$2"
	awk '{ printf "%.1f\n", $1 }' "$out/start.$2" | median > "$out/ms.$2"
	awk '{ print $2 }' "$out/start.$2" | median > "$out/rss.$2"
}

stream() {	# tool: lines/s of printf per getppid, and lines lost
	local tool=$1 n=200000
	"$tool" -q -o "$out/lines.$2" -c "$out/load $n 300" \
		-e 'tracepoint:syscalls:sys_enter_getppid /comm == "load"/ { printf("%d %d\n", pid, nsecs); }' \
		> "$out/loadout.$2" 2>&1
	local got=$(grep -c . "$out/lines.$2" 2>/dev/null || echo 0)
	local secs=$(sed -n 's/.* calls in \([0-9.]*\) s/\1/p' "$out/loadout.$2" "$out/lines.$2" | head -1)
	awk -v g="$got" -v s="${secs:-0}" 'BEGIN { if (s > 0) printf "%d\n", g / s; else print "-" }' > "$out/lps.$2"
	echo $((n - got)) > "$out/lost.$2"
}

if [[ -n $BPFTRACE ]]; then ref=$("$BPFTRACE" --version); else ref="no bpftrace installed"; fi
echo "sonde $("$SONDE" -V | awk '{print $2}') vs $ref; $(nproc) CPUs; $(uname -r); $(date -u +%F)"
printf '%-44s %14s %14s %10s\n' "measure" "sonde" "bpftrace" "ratio"
start "$SONDE" s
[[ -n $BPFTRACE ]] && start "$BPFTRACE" b
row "BEGIN { exit(); } wall time, median (ms)" "$(cat "$out/ms.s")" "$(cat "$out/ms.b" 2>/dev/null || echo -)"
row "BEGIN { exit(); } peak RSS (KiB)" "$(cat "$out/rss.s")" "$(cat "$out/rss.b" 2>/dev/null || echo -)"

make -s build/sonde-static >/dev/null 2>&1
ssize=$(stat -c %s build/sonde-static 2>/dev/null || echo -)
bsize=-
if [[ -n $BPFTRACE ]]; then
	# bpftrace and every shared library it loads
	bsize=$( (echo "$BPFTRACE"; ldd "$BPFTRACE" | awk '/=>/ { print $3 }') | xargs -r stat -L -c %s | awk '{ s += $1 } END { print s }')
fi
row "install size: static binary vs bpftrace+libs (bytes)" "$ssize" "$bsize"

stream "$SONDE" s
[[ -n $BPFTRACE ]] && stream "$BPFTRACE" b
row "printf stream, one line per getppid (lines/s)" "$(cat "$out/lps.s")" "$(cat "$out/lps.b" 2>/dev/null || echo -)"
row "  of 200000 lines, lost" "$(cat "$out/lost.s")" "$(cat "$out/lost.b" 2>/dev/null || echo -)"

percall() {	# tool or "none": ns per getppid call under @[comm] = count()
	local n=1000000 i
	for i in 1 2 3; do
		if [[ $1 == none ]]; then
			"$out/load" $n 0
		else
			"$1" -q -c "$out/load $n 300" -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' 2>/dev/null
		fi | sed -n 's/.* calls in \([0-9.]*\) s/\1/p'
	done | median | awk -v n=$n '{ printf "%.0f\n", $1 * 1e9 / n }'
}
base=$(percall none)
s_ns=$(percall "$SONDE")
b_ns=-
[[ -n $BPFTRACE ]] && b_ns=$(percall "$BPFTRACE")
add() { [[ $1 == - ]] && echo - || echo $(( $1 - base )); }
row "getppid cost without tracing (ns)" "$base" "$base"
row "added per event by @[comm] = count() (ns)" "$(add "$s_ns")" "$(add "$b_ns")"

cc -O2 -o "$out/proginsns" bench/proginsns.c || exit 1
insns() {	# tool script: BPF instructions its programs hold (xlated)
	local pid n
	"$1" -q -e "$2 interval:s:3 { exit(); }" >/dev/null 2>&1 & pid=$!
	sleep 1.5
	# every program but the exit timer: sum of the others
	n=$("$out/proginsns" $pid | grep -v -i interval | awk '{ s += $2 } END { print s + 0 }')
	wait $pid
	echo "$n"
}
for s in 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' \
	 'tracepoint:syscalls:sys_exit_read { @ = hist(args->ret); }' \
	 'tracepoint:syscalls:sys_enter_openat { printf("%s %s\n", comm, str(args->filename)); }'; do
	si=$(insns "$SONDE" "$s")
	bi=-
	[[ -n $BPFTRACE ]] && bi=$(insns "$BPFTRACE" "$s")
	row "insns: ${s:0:38}" "$si" "$bi"
done
