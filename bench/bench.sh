#!/bin/bash
# bench/bench.sh (make bench): sonde against bpftrace (when installed) on
# the same workloads, same run; medians of several runs, and the
# sonde/bpftrace ratio.  Public tools only: /usr/bin/time, date, and
# small helpers in bench/ (a load generator, a first-line timer, a
# reader of loaded programs).  Run as root.  docs/performance.md says
# what each row measures.
#
#   SONDE=path      the sonde measured; by default the static binary of
#                   "make static" (build/sonde-static), the one the
#                   install-size row counts (./sonde if it cannot be built)
#   RUNS=7          runs per start-time figure (medians)
#   ATTACH_RUNS=3   runs of the sys_enter_* attach (each also detaches:
#                   under a second for sonde, 35 s for bpftrace)
#   RSS_SECS=60     length of the long-run memory row
#   BURST_RUNS=5    runs of the million-event printf burst
#   RT=1            run the tools of the start-time rows (BEGIN, first
#                   event, attach) at real-time priority (chrt -f 10),
#                   so that other jobs on a shared machine disturb them
#                   less; both tools alike
set -u
cd "$(dirname "$0")/.."
if [[ -z ${SONDE:-} ]]; then
	SONDE=./sonde
	make -s build/sonde-static >/dev/null 2>&1 && SONDE=build/sonde-static
fi
# against bpftrace 0.17, in its dialect (its scripts of BEGIN alone
# wait for a signal, as bpftrace's do)
export SONDE_DIALECT=${SONDE_DIALECT:-0.17}
RUNS=${RUNS:-7}
ATTACH_RUNS=${ATTACH_RUNS:-3}
RSS_SECS=${RSS_SECS:-60}
BURST_RUNS=${BURST_RUNS:-5}
rt=()
[[ ${RT:-0} == 1 ]] && rt=(chrt -f 10)
# The load generator runs on the last CPU: here the vCPUs differ (a
# getppid() costs 780 ns on CPU 0, 520 on CPU 1), and a load that
# moved between them would make the per-event rows noise.
pin=()
(( $(nproc) > 1 )) && command -v taskset >/dev/null && pin=("$(command -v taskset)" -c $(( $(nproc) - 1 )))
BPFTRACE=$(command -v bpftrace || true)
out=$(mktemp -d)
bg=()	# background processes to stop on the way out
trap 'for p in "${bg[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$out"' EXIT
for h in load firstline proginsns; do
	cc -O2 -o "$out/$h" "bench/$h.c" || exit 1
done

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0 || s == "-") print "-"; else printf "%.3g\n", s / b }'; }
# pid: SIGINT, then wait.  bpftrace 0.17 now and then ignores a SIGINT
# (here up to one in two soon after it started), so it is repeated each
# second; sonde takes a second one as "exit at once", but these runs
# exit within a second of the first.
stop() {
	local i
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		(( i % 10 == 1 )) && kill -INT "$1"
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
row() { printf '%-56s %10s %10s %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }

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
	for i in $(seq "$RUNS"); do measure "${rt[@]}" "$tool" -e 'BEGIN { exit(); }'; done > "$out/start.$2"
	awk '{ printf "%.1f\n", $1 }' "$out/start.$2" | median > "$out/ms.$2"
	awk '{ print $2 }' "$out/start.$2" | median > "$out/rss.$2"
}

stream() {	# tool: lines/s of printf per getppid, and lines lost
	local tool=$1 n=200000
	"$tool" -q -o "$out/lines.$2" -c "${pin[*]} $out/load $n 300" \
		-e 'tracepoint:syscalls:sys_enter_getppid /comm == "load"/ { printf("%d %d\n", pid, nsecs); }' \
		> "$out/loadout.$2" 2>&1
	local got
	got=$(grep -c . "$out/lines.$2" 2>/dev/null)
	got=${got:-0}
	local secs=$(sed -n 's/.* calls in \([0-9.]*\) s/\1/p' "$out/loadout.$2" "$out/lines.$2" | head -1)
	awk -v g="$got" -v s="${secs:-0}" 'BEGIN { if (s > 0) printf "%d\n", g / s; else print "-" }' > "$out/lps.$2"
	echo $((n - got)) > "$out/lost.$2"
}

if [[ -n $BPFTRACE ]]; then ref=$("$BPFTRACE" --version); else ref="no bpftrace installed"; fi
echo "sonde $("$SONDE" -V | awk '{print $2}') ($SONDE) vs $ref; $(nproc) CPUs; $(uname -r); $(date -u +%F)${rt:+; start-time rows at real-time priority}"
printf '%-56s %10s %10s %9s\n' "measure" "sonde" "bpftrace" "ratio"
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

# A burst: a million getppid() calls as fast as one core makes them,
# unpinned (the load and the reader go where the scheduler puts them),
# each traced by a printf to a file, at each tool's default ring buffer
# (perf buffer for bpftrace) size; the most lines lost in BURST_RUNS
# runs, and the median peak RSS, which holds the buffer (sonde's ring
# buffer pages are mapped twice, so count twice).
burst() {	# tool tag
	local n=1000000 i got kib
	for i in $(seq "$BURST_RUNS"); do
		kib=$(/usr/bin/time -f '%M' "$1" -q -o "$out/burst.$2" -c "$out/load $n 300" \
			-e 'tracepoint:syscalls:sys_enter_getppid /comm == "load"/ { printf("%d %d\n", pid, nsecs); }' \
			2>&1 >/dev/null | tail -1)
		got=$(grep -c '^[0-9]' "$out/burst.$2")
		echo "$((n - got)) $kib"
	done > "$out/bursts.$2"
	sort -n "$out/bursts.$2" | tail -1 | awk '{ print $1 }' > "$out/blost.$2"
	awk '{ print $2 }' "$out/bursts.$2" | median > "$out/brss.$2"
}
burst "$SONDE" s
[[ -n $BPFTRACE ]] && burst "$BPFTRACE" b
row "printf burst of 1000000, unpinned: most lost of $BURST_RUNS" "$(cat "$out/blost.s")" "$(cat "$out/blost.b" 2>/dev/null || echo -)"
row "  peak RSS during the burst, median (KiB)" "$(cat "$out/brss.s")" "$(cat "$out/brss.b" 2>/dev/null || echo -)"

percall() {	# tool or "none" [script [option...]]: ns per getppid call
	local n=1000000 tool=$1
	local s=${2:-'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'}
	shift; shift
	if [[ $tool == none ]]; then
		"${pin[@]}" "$out/load" $n 0
	else
		"$tool" "$@" -q -c "${pin[*]} $out/load $n 300" -e "$s" 2>/dev/null
	fi | sed -n 's/.* calls in \([0-9.]*\) s/\1/p' | awk -v n=$n '{ printf "%.0f\n", $1 * 1e9 / n }'
}
# Rounds of untraced, sonde, bpftrace: the added cost is the median of
# each round's difference, so that a slow spell of the machine (another
# guest on the host) weighs on all three alike.
: > "$out/pc.base"; : > "$out/pc.s"; : > "$out/pc.b"
for i in 1 2 3 4 5; do
	base=$(percall none); echo "$base" >> "$out/pc.base"
	s_ns=$(percall "$SONDE")
	[[ -n $s_ns ]] && echo $(( s_ns - base )) >> "$out/pc.s"
	if [[ -n $BPFTRACE ]]; then
		b_ns=$(percall "$BPFTRACE")
		[[ -n $b_ns ]] && echo $(( b_ns - base )) >> "$out/pc.b"
	fi
done
base=$(median < "$out/pc.base")
b_add=-
[[ -n $BPFTRACE ]] && b_add=$(median < "$out/pc.b")
row "getppid cost without tracing (ns)" "$base" "$base"
row "added per event by @[comm] = count() (ns)" "$(median < "$out/pc.s")" "$b_add"
# The same through a wildcard's shared program: sys_enter_get* (20 or
# so calls) is one program on raw_syscalls:sys_enter, which runs for
# every call and keeps the 20 (docs/internals.md); against bpftrace's
# perf event per call and sonde's own (--no-feature syscall_mux).
wild='tracepoint:syscalls:sys_enter_get* { @[probe] = count(); }'
: > "$out/pc.base"; : > "$out/pc.s"; : > "$out/pc.b"; : > "$out/pc.n"
for i in 1 2 3 4 5; do
	base=$(percall none); echo "$base" >> "$out/pc.base"
	s_ns=$(percall "$SONDE" "$wild")
	[[ -n $s_ns ]] && echo $(( s_ns - base )) >> "$out/pc.s"
	s_ns=$(percall "$SONDE" "$wild" --no-feature syscall_mux)
	[[ -n $s_ns ]] && echo $(( s_ns - base )) >> "$out/pc.n"
	if [[ -n $BPFTRACE ]]; then
		b_ns=$(percall "$BPFTRACE" "$wild")
		[[ -n $b_ns ]] && echo $(( b_ns - base )) >> "$out/pc.b"
	fi
done
b_add=-
[[ -n $BPFTRACE ]] && b_add=$(median < "$out/pc.b")
row "added per event by sys_enter_get* @[probe] = count() (ns)" "$(median < "$out/pc.s")" "$b_add"
row "  sonde, one program per tracepoint (ns)" "$(median < "$out/pc.n")" "$b_add"

# Start to first event of a tracepoint + hist + interval script.  A
# load generator calls getppid() every 100 us (plus usleep's slack) from
# before the tool starts and for as long as the runs last; the probe
# fills a histogram and prints a line for every event, and firstline
# times from the fork of the tool to the first such line on its stdout:
# compile, load, attach and the trip of one event through the kernel
# to user space.  Then the tool gets SIGINT (bpftrace again each second
# until it exits, see stop()).
"$out/load" 0 0 100 >/dev/null & load=$!; bg+=($load)
sigint() { [[ $1 == "$BPFTRACE" ]] && echo 1000 || echo 0; }
first_event() {	# tool tag: median ms from start to the first event line
	local s='tracepoint:syscalls:sys_enter_getppid /comm == "load"/ { @ = hist(pid); printf("event\n"); } interval:ms:100 { print(@); }'
	local i
	for i in $(seq "$RUNS"); do
		"${rt[@]}" "$out/firstline" -t 30 -r "$(sigint "$1")" event "$1" -e "$s" 2>/dev/null
	done | awk '{ print $1 }' | median > "$out/first.$2"
}
first_event "$SONDE" s
[[ -n $BPFTRACE ]] && first_event "$BPFTRACE" b
row "tracepoint + hist + interval, start to first event (ms)" "$(cat "$out/first.s")" "$(cat "$out/first.b" 2>/dev/null || echo -)"

# Attaching every syscall-entry tracepoint: from start to the output of
# BEGIN, which both tools run once every probe is attached (bpftrace
# 0.17 writes it after its last perf_event_open, strace shows); then from
# SIGINT to exit, which is mostly detaching (the kernel waits for each
# tracepoint to be unregistered).  bpftrace's limits on probes and
# programs (512 each) are raised in case a kernel has more.
attach() {	# tool tag [PROBES]: median ms to attach, and to detach and exit
	local s="${3:-tracepoint:syscalls:sys_enter_*} { @[probe] = count(); } BEGIN { printf(\"attached\\n\"); }"
	local i
	for i in $(seq "$ATTACH_RUNS"); do
		BPFTRACE_MAX_PROBES=4096 BPFTRACE_MAX_BPF_PROGS=4096 \
			"${rt[@]}" "$out/firstline" -t 300 -w 200 -r "$(sigint "$1")" attached "$1" -e "$s" 2>/dev/null
	done > "$out/attach.$2"
	awk '{ print $1 }' "$out/attach.$2" | median > "$out/att.$2"
	awk '{ print $2 }' "$out/attach.$2" | median > "$out/det.$2"
}
attach "$SONDE" s
[[ -n $BPFTRACE ]] && attach "$BPFTRACE" b
ntp=$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_* | wc -l)
row "attach $ntp sys_enter_* tracepoints, start to BEGIN (ms)" "$(cat "$out/att.s")" "$(cat "$out/att.b" 2>/dev/null || echo -)"
row "  then SIGINT to exit: detach (ms)" "$(cat "$out/det.s")" "$(cat "$out/det.b" 2>/dev/null || echo -)"
# The same over the largest category of other tracepoints (xfs's 631
# here): raw tracepoint links for sonde (docs/internals.md, "Many
# tracepoints"), perf events for bpftrace
cat_big=$(for d in /sys/kernel/tracing/events/*/; do
	c=${d%/}; c=${c##*/}
	[[ $c == syscalls || $c == ftrace ]] && continue
	echo "$(ls -d "$d"*/ 2>/dev/null | wc -l) $c"
done | sort -n | tail -1)
if [[ -n $cat_big ]]; then
	attach "$SONDE" s "tracepoint:${cat_big#* }:*"
	[[ -n $BPFTRACE ]] && attach "$BPFTRACE" b "tracepoint:${cat_big#* }:*"
	row "attach ${cat_big% *} ${cat_big#* }:* tracepoints, start to BEGIN (ms)" "$(cat "$out/att.s")" "$(cat "$out/att.b" 2>/dev/null || echo -)"
	row "  then SIGINT to exit: detach (ms)" "$(cat "$out/det.s")" "$(cat "$out/det.b" 2>/dev/null || echo -)"
fi

# Memory over a long run: a tracepoint filling a keyed map and a
# histogram and printing a line per event, and a 10 ms interval that
# prints and clears both (with the load above: about 5000 events, 5000
# printf lines and 10000 map lines a second).  Both tools run at once,
# their output to /dev/null; VmRSS is read from /proc after 5 s and
# after RSS_SECS.
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo -; }
long='tracepoint:syscalls:sys_enter_getppid /comm == "load"/ { @[comm, nsecs % 100] = count(); @h = hist(nsecs % 1000); printf("%s %d\n", comm, nsecs); } interval:ms:10 { print(@); print(@h); clear(@); clear(@h); }'
"$SONDE" -e "$long" >/dev/null 2>&1 & spid=$!; bg+=($spid)
bpid=
[[ -n $BPFTRACE ]] && { "$BPFTRACE" -e "$long" >/dev/null 2>&1 & bpid=$!; bg+=($bpid); }
sleep 5
s5=$(rss $spid); b5=-; [[ -n $bpid ]] && b5=$(rss $bpid)
sleep $((RSS_SECS - 5))
sN=$(rss $spid); bN=-; [[ -n $bpid ]] && bN=$(rss $bpid)
stop $spid
[[ -n $bpid ]] && stop $bpid
kill $load
row "print + clear every 10 ms: RSS after 5 s (KiB)" "$s5" "$b5"
row "  RSS after $RSS_SECS s (KiB)" "$sN" "$bN"

# BPF instructions of the programs a tool loads for a script, the
# verifier's (xlated) count as bpftool shows it.  The tool runs without
# an exit timer, so only the script's own programs count: it starts in
# the background, and once the set of programs it holds stops changing
# (bpftrace loads each just before attaching it) they are read, each
# once (bench/proginsns.c: by id, though sonde holds a program's fd and
# its link's), then it gets SIGINT.
progs() {	# tool script tag: "id name insns" lines in $out/progs.tag
	local pid prev= cur= i
	"$1" -e "$2" >/dev/null 2>&1 & pid=$!
	for i in $(seq 50); do
		sleep 0.2
		cur=$("$out/proginsns" $pid)
		[[ -n $cur && $cur == "$prev" ]] && break
		prev=$cur
	done
	if [[ -n $cur ]]; then echo "$cur"; fi > "$out/progs.$3"
	stop $pid
}
total() { awk '{ s += $3 } END { print NR ? s : "-" }' "$1"; }
each() { awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $3 } END { if (!NR) printf "-" }' "$1"; }
for s in 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' \
	 'tracepoint:syscalls:sys_exit_read { @ = hist(args->ret); }' \
	 'tracepoint:syscalls:sys_enter_openat { printf("%s %s\n", comm, str(args->filename)); }'; do
	progs "$SONDE" "$s" s
	: > "$out/progs.b"
	[[ -n $BPFTRACE ]] && progs "$BPFTRACE" "$s" b
	row "insns: ${s:0:38}" "$(total "$out/progs.s")" "$(total "$out/progs.b")"
	printf '      sonde: %s; bpftrace: %s\n' "$(each "$out/progs.s")" "$(each "$out/progs.b")"
done

# A kprobe wildcard over 1,000+ functions in the 6.12 guest kernel
# (kprobes: not on this host): one kprobe_multi link against sonde's
# own one link per function; no bpftrace there (GUEST=0 skips it)
if [[ ${GUEST:-1} == 1 ]] && command -v qemu-system-x86_64 >/dev/null; then
	VM_TIMEOUT=600 tools/vm-run -k 6.12 sh bench/guest_kprobes.sh 2>/dev/null ||
		echo "guest kprobe rows: tools/vm-run failed"
fi

# Long probe bodies, 100 to 5,000 statements (bench/large.sh)
SONDE=$SONDE bench/large.sh

# Sampled user stacks: walked by the CFI against frame pointers
# (bench/stacks.sh)
SONDE=$SONDE bench/stacks.sh
