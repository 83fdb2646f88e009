#!/bin/bash
# run.sh - sonde under load ("make stress"); see the "Stress" part of
# README.md's test section.
#
# usage: tests/stress/run.sh [CASE...]      (from the repository root, as root)
#   CASE: probes keys output forks (default: all four, in that order)
#   probes  every syscall tracepoint (720 here) and 1,000 uprobes at once
#           (wildcards): exact counts, results soon after Ctrl-C, nothing
#           left in the kernel after the exit
#   keys    a map of STRESS_KEYS distinct keys (and a histogram per key,
#           and a map cleared in END): exact counts, printing time, memory
#   output  STRESS_RATE printf lines a second (100 bytes each) to -o FILE
#           for STRESS_SECONDS: lines + "Lost N events" = events made,
#           resident memory flat; then a burst into a FIFO whose reader
#           stops: the events lost are counted exactly
#   forks   STRESS_FORKS fork+execs of a short program under sched_process
#           exec/exit and a profile probe taking ustack: exact counts,
#           stacks symbolized after the processes exited, memory flat
# Environment (defaults): SONDE (./sonde), STRESS_BIN (build/stress, the
# load generators), SONDE_PROGS (build/progs), STRESS_SECONDS (60),
# STRESS_RATE (100000), STRESS_KEYS (100000), STRESS_FORKS (5000),
# STRESS_CALLS (3: calls of each of the 1,000 functions); STRESS_KEEP=1
# keeps the work directory (outputs, stderr, RSS samples).
# Each case prints "PASS CASE: figures" or "FAIL CASE: why"; the last line
# is "N passed, N failed"; the exit status is 1 if any failed.  A case
# whose tracer runs past its time limit is killed and fails.
set -u
export LC_ALL=C

root=$(pwd)
SONDE=${SONDE:-$root/sonde}
# its checks read 0.17's "Attaching N probes..." line
export SONDE_DIALECT=${SONDE_DIALECT:-0.17}
BIN=${STRESS_BIN:-$root/build/stress}
PROGS=${SONDE_PROGS:-$root/build/progs}
SECS=${STRESS_SECONDS:-60}
RATE=${STRESS_RATE:-100000}
KEYS=${STRESS_KEYS:-100000}
FORKS=${STRESS_FORKS:-5000}
CALLS=${STRESS_CALLS:-3}

if (( EUID != 0 )); then
	echo "stress: needs root (tracing)"
	exit 2
fi
for f in "$SONDE" "$BIN/loadgen" "$BIN/manyfn" "$PROGS/bpfprogs"; do
	[[ -x $f ]] || { echo "stress: $f not built (make stress builds it)"; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sonde-stress.XXXXXX") || exit 2
GEN= SPID= GUARD= SAMPLER=
cleanup() {
	local p
	for p in $GEN $SPID $GUARD $SAMPLER; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	if [[ -n ${STRESS_KEEP-} ]]; then
		echo "stress: kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

npass=0 nfail=0
why=
bad() { why+="${why:+; }$*"; }

now() { echo "$EPOCHREALTIME"; }
# elapsed T0 [T1]: seconds from T0 to T1 (default now), 2 decimals
elapsed() { awk -v a="$1" -v b="${2:-$EPOCHREALTIME}" 'BEGIN { printf "%.2f", b - a }'; }

# wait_for FILE REGEX SECONDS: poll until a line of FILE matches
wait_for() {
	local end=$((SECONDS + $3))
	while (( SECONDS <= end )); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		kill -0 "$SPID" 2>/dev/null || { grep -qE "$2" "$1" 2>/dev/null; return; }
		sleep 0.05
	done
	return 1
}

# gen_start PROG ARG...: a load generator, blocked until gen_go; $GEN
gen_start() {
	"$@" > "$work/gen.out" 2> "$work/gen.err" &
	GEN=$!
	local i
	for ((i = 0; i < 200; i++)); do
		grep -qs '^waiting$' "$work/gen.err" && return 0
		sleep 0.05
	done
	bad "generator $1 did not start: $(head -c 300 "$work/gen.err")"
	return 1
}

# guard PID SECONDS: kill -KILL PID if it still runs after SECONDS; the
# guard's pid is in $! (it polls rather than sleeps: a sleeping child
# would outlive PID and hold our stdout open)
guard() {
	( for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$1" 2>/dev/null || exit 0
		sleep 0.1
	  done
	  kill -KILL "$1" 2>/dev/null ) > /dev/null 2>&1 &
}

# gen_go: release the generator and wait for it (10 minutes at most);
# 1 unless it exits 0
gen_go() {
	local rc g
	kill -USR1 "$GEN"
	guard "$GEN" 600; g=$!
	wait "$GEN"
	rc=$?
	kill "$g" 2>/dev/null
	wait "$g" 2>/dev/null
	GEN=
	(( rc == 0 )) || { bad "generator exited $rc: $(head -c 300 "$work/gen.err")"; return 1; }
}

# tracer_start LIMIT OUT ARG...: sonde ARG... in the background ($SPID),
# stdout to OUT, stderr to $work/err, killed after LIMIT seconds; its
# VmRSS and VmHWM (kB) sampled every 0.5 s into $work/rss.  Waits until
# OUT has the line "ready" (from BEGIN: every probe attached).
tracer_start() {
	local limit=$1 out=$2
	shift 2
	: > "$work/rss"
	: > "$out"
	"$SONDE" "$@" > "$out" 2> "$work/err" &
	SPID=$!
	guard "$SPID" "$limit"; GUARD=$!
	( while [[ -r /proc/$SPID/status ]]; do
		awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 }
		     END { if (r) print r, h }' "/proc/$SPID/status" >> "$work/rss" 2>/dev/null
		sleep 0.5
	  done ) & SAMPLER=$!
	# sonde writes "ready" to -o's file when there is one; $READY_IN
	# names another file to watch (where a reader of a FIFO copies it)
	local f=$out a prev=
	for a in "$@"; do [[ $prev == -o ]] && f=$a; prev=$a; done
	f=${READY_IN:-$f}
	wait_for "$f" '^ready$' "$limit" && return 0
	bad "sonde did not get ready: $(head -c 500 "$work/err")"
	return 1
}

# tracer_wait: wait for sonde to exit; sets $status; 1 if it was killed
# by the time limit or crashed
tracer_wait() {
	wait "$SPID"
	status=$?
	SPID=
	kill "$GUARD" 2>/dev/null
	wait "$GUARD" 2>/dev/null
	wait "$SAMPLER" 2>/dev/null
	GUARD= SAMPLER=
	if (( status >= 128 )); then
		bad "sonde died of signal $((status - 128)) (137: the time limit); stderr: $(head -c 300 "$work/err")"
		return 1
	fi
	(( status == 0 )) || bad "sonde exited $status: $(head -c 300 "$work/err")"
}

# prog_ids PID: the BPF programs PID holds, from its fds' fdinfo
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u
}

# left_behind IDS: how many of these program ids the kernel still has
left_behind() {
	"$PROGS/bpfprogs" | awk '{ print $1 }' | sort -u |
		comm -12 - <(tr ' ' '\n' <<< "$1" | sed '/^$/d' | sort -u) | wc -l
}

rss_mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# rss_growth: "BASE MAX" (kB) from $work/rss: the VmRSS sample a sixth
# of the way in (start-up and the first bursts done), and the highest
# from there on
rss_growth() {
	awk '{ v[NR] = $1 } END {
		b = int(NR / 6) + 1; max = v[b]
		for (i = b; i <= NR; i++) if (v[i] > max) max = v[i]
		printf "%d %d", v[b], max }' "$work/rss"
}

finish() {	# CASE FIGURES
	if [[ -z $why ]]; then
		npass=$((npass + 1))
		echo "PASS $1: $2"
	else
		nfail=$((nfail + 1))
		echo "FAIL $1: $why${2:+ ($2)}"
	fi
	why=
}

# 1. Every syscall tracepoint and 1,000 uprobes (the tracepoints merge
# into two programs on raw_syscalls: issue 20).  The uprobe block tells
# its functions apart by usym(reg("ip")) (the probed address, named
# after the process exited), not by probe or func, so it attaches as one
# uprobe_multi link where the kernel has them; 10 of the functions also
# get a block using probe: one more uprobe_multi link, whose program
# reads the names from a table its cookies index.
case_probes() {
	local out=$work/probes.out t0 t1 t2 ids n nfn bad_fn figs
	local fn=$BIN/manyfn
	gen_start "$fn" wait "$CALLS" || { finish probes ""; return; }
	t0=$(now)
	# past bpftrace's default limits (512 probes and programs), as a
	# user attaching this many must say
	BPFTRACE_MAX_PROBES=4096 BPFTRACE_MAX_BPF_PROGS=4096 \
	tracer_start 300 "$out" -e "BEGIN { printf(\"ready\\n\"); }
	tracepoint:syscalls:sys_* /pid == $GEN/ { @sys[probe] = count(); }
	uprobe:$fn:fn* /pid == $GEN/ { @fn[usym(reg(\"ip\"))] = count(); @calls = count(); }
	uprobe:$fn:fn99* /pid == $GEN/ { @site[probe] = count(); }" ||
		{ finish probes ""; return; }
	local tready; tready=$(elapsed "$t0")
	ids=$(prog_ids "$SPID")
	gen_go
	t1=$(now)
	kill -INT "$SPID"
	wait_for "$out" '^@sys\[' 300
	local tres; tres=$(elapsed "$t1")
	tracer_wait
	local texit; texit=$(elapsed "$t1")
	n=$(sed -n 's/^Attaching \([0-9]*\) probes\.\.\.$/\1/p' "$out")
	(( ${n:-0} >= 1700 )) || bad "attached ${n:-no} probes"
	grep -qx "@calls: $((1000 * CALLS))" "$out" ||
		bad "@calls: want $((1000 * CALLS)), got '$(grep '^@calls' "$out")'"
	nfn=$(grep -c '^@fn\[fn[0-9][0-9][0-9]\]: ' "$out")
	bad_fn=$(grep '^@fn\[' "$out" | grep -vc "^@fn\[fn[0-9][0-9][0-9]\]: $CALLS\$")
	(( nfn == 1000 && bad_fn == 0 )) || bad "@fn: $nfn keys fnNNN, $bad_fn other or not $CALLS"
	(( $(grep -c "^@site\[uprobe:$fn:fn99[0-9]\]: $CALLS\$" "$out") == 10 )) ||
		bad "@site: $(grep -c '^@site' "$out") keys, want 10 of $CALLS"
	local s
	for s in enter exit; do
		grep -qx "@sys\[tracepoint:syscalls:sys_${s}_getppid\]: $CALLS" "$out" ||
			bad "@sys[...sys_${s}_getppid] is not $CALLS"
	done
	[[ -s $work/err ]] && bad "stderr: $(head -c 300 "$work/err")"
	# the syscall tracepoints are two programs on raw_syscalls (and one
	# each for calls neither the headers nor sonde's table number), the
	# uprobes one uprobe_multi program, the fn99* block another, BEGIN
	(( $(wc -w <<< "$ids") >= 5 )) || bad "only $(wc -w <<< "$ids") programs seen in sonde's fds"
	local left; left=$(left_behind "$ids")
	(( left == 0 )) || bad "$left of its programs still loaded after exit"
	if [[ -r /sys/kernel/tracing/uprobe_events ]] &&
	   grep -qF "$fn" /sys/kernel/tracing/uprobe_events; then
		bad "uprobe_events still lists $fn"
	fi
	# the programs stop in a second; the perf events close after
	awk -v s="$tres" 'BEGIN { exit !(s < 5) }' || bad "results $tres s after SIGINT"
	local peak; peak=$(awk '{ h = $2 } END { print h + 0 }' "$work/rss")
	figs="${n:-?} probes ready in ${tready} s; after SIGINT results in ${tres} s, exit in ${texit} s; @calls $((1000 * CALLS)), $nfn functions x $CALLS; $(wc -w <<< "$ids") programs, none left; peak RSS $(rss_mb "$peak") MB"
	finish probes "$figs"
}

# 2. KEYS distinct keys in a count map, a hist map and a map that END
# clears; each key REPEAT times.
case_keys() {
	local out=$work/keys.out rep=3 t1 figs
	gen_start "$BIN/loadgen" wait keys "$KEYS" "$rep" || { finish keys ""; return; }
	BPFTRACE_MAP_KEYS_MAX=$((KEYS * 2)) tracer_start 300 "$out" -e "BEGIN { printf(\"ready\\n\"); }
	tracepoint:syscalls:sys_enter_getpgid /pid == $GEN/ {
		@k[args->pid] = count(); @n = count();
		@h[args->pid] = hist(args->pid - 100000000);
		@c[args->pid] = count();
	}
	END { clear(@c); }" || { finish keys ""; return; }
	local t0; t0=$(now)
	gen_go
	local tgen; tgen=$(elapsed "$t0")
	t1=$(now)
	kill -INT "$SPID"
	tracer_wait
	local tprint; tprint=$(elapsed "$t1")
	local nk badk nh
	nk=$(grep -c '^@k\[' "$out")
	badk=$(grep '^@k\[' "$out" | grep -vc ": $rep\$")
	(( nk == KEYS && badk == 0 )) || bad "@k: $nk keys (want $KEYS), $badk not $rep"
	# the keys are exactly 100000000 .. +KEYS-1
	local range
	range=$(awk -F'[][]' '/^@k\[/ { if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 }
		END { print min, max }' "$out")
	[[ $range == "100000000 $((100000000 + KEYS - 1))" ]] || bad "@k keys span $range"
	grep -qx "@n: $((KEYS * rep))" "$out" || bad "@n: want $((KEYS * rep)), got '$(grep '^@n' "$out")'"
	nh=$(grep -c '^@h\[.*\]: $' "$out")
	(( nh == KEYS )) || bad "@h: $nh histograms, want $KEYS"
	grep -q '^@c\[' "$out" && bad "@c printed after clear"
	[[ -s $work/err ]] && bad "stderr: $(head -c 300 "$work/err")"
	# a second or two per 100,000 keys (they took 2 minutes once); the
	# printer's memory: some 320 bytes a key, start-up aside
	awk -v s="$tprint" -v k="$KEYS" 'BEGIN { exit !(s < 10 + k / 10000) }' ||
		bad "printing took $tprint s"
	local peak; peak=$(awk '{ h = $2 } END { print h + 0 }' "$work/rss")
	(( peak <= 16384 + KEYS * 32 / 100 )) || bad "peak RSS $(rss_mb "$peak") MB"
	figs="$KEYS keys x $rep in ${tgen} s; SIGINT to exit (clear, print $(wc -l < "$out") lines) ${tprint} s; peak RSS $(rss_mb "$peak") MB"
	finish keys "$figs"
}

# 3. RATE printf lines a second for SECS seconds to -o FILE.
case_output() {
	local out=$work/output.log stdout=$work/output.stdout figs
	gen_start "$BIN/loadgen" wait rate "$RATE" "$SECS" || { finish output ""; return; }
	tracer_start $((SECS + 120)) "$stdout" -o "$out" -e "BEGIN { printf(\"ready\\n\"); }
	tracepoint:syscalls:sys_enter_getpgid /pid == $GEN/ {
		printf(\"%d %s %-83s|\\n\", args->pid - 100000000, comm, \"load line padding to one hundred bytes\");
	}" || { finish output ""; return; }
	local t0; t0=$(now)
	gen_go
	local tgen; tgen=$(elapsed "$t0")
	sleep 1
	kill -INT "$SPID"
	tracer_wait
	local made lines badl lost size
	made=$(sed -n 's/^events //p' "$work/gen.out")
	lost=$(sed -n 's/^Lost \([0-9]*\) events$/\1/p' "$work/err")
	lost=${lost:-0}
	# data lines: "SEQ loadgen PAD|" (100 bytes with the newline when SEQ
	# has 6 digits); anything else but the frame is bad
	read -r lines badl < <(awk '
		$1 ~ /^[0-9]+$/ && $2 == "loadgen" && /\|$/ &&
		length($0) == length($1) + 93 { n++; next }
		/^(Attaching [0-9]+ probes\.\.\.|ready|)$/ { next }
		{ b++ } END { print n + 0, b + 0 }' "$out")
	size=$(stat -c %s "$out")
	(( badl == 0 )) || bad "$badl malformed lines"
	(( lines + lost == made )) || bad "lines $lines + lost $lost != events $made"
	(( made > 0 )) || bad "no events made"
	grep -v '^Lost [0-9]* events$' "$work/err" | grep -q . &&
		bad "stderr: $(grep -v '^Lost' "$work/err" | head -c 300)"
	# flat: no sample above the one a sixth of the way in by > 2 MiB
	local rss base max
	rss=$(rss_growth)
	base=${rss% *} max=${rss#* }
	(( max - base <= 2048 )) || bad "RSS grew from $(rss_mb "$base") to $(rss_mb "$max") MB"
	figs="$made events in ${tgen} s ($(awk -v s="$size" -v t="$tgen" 'BEGIN { printf "%.1f", s / t / 1e6 }') MB/s), $lines lines, $lost lost; RSS $(rss_mb "$base") MB a sixth of the way in, max $(rss_mb "$max") MB"
	[[ -n ${STRESS_KEEP-} ]] || rm -f "$out"

	# A burst sonde cannot keep up with: its -o is a FIFO whose reader
	# stops for 3 s once it has read "ready", so sonde blocks writing,
	# the ring buffer fills, and the events past it must be counted as
	# lost, exactly.
	local fifo=$work/fifo flag=$work/ready.flag made2 lines2 bad2 lost2 reader
	rm -f "$fifo" "$flag"
	mkfifo "$fifo"
	# (bash's read takes a pipe byte by byte; awk would wait for more)
	{
		while IFS= read -r l && [[ $l != ready ]]; do :; done
		echo ready > "$flag"
		sleep 3
		awk '$1 ~ /^[0-9]+$/ && $2 == "loadgen" && /\|$/ &&
			length($0) == length($1) + 93 { n++; next }
			/^$/ { next }
			{ b++ } END { print n + 0, b + 0 }'
	} < "$fifo" > "$work/burst.count" & reader=$!
	gen_start "$BIN/loadgen" wait rate 1000000 2 || { finish output "$figs"; return; }
	READY_IN=$flag tracer_start 120 "$work/burst.stdout" -o "$fifo" -e "BEGIN { printf(\"ready\\n\"); }
	tracepoint:syscalls:sys_enter_getpgid /pid == $GEN/ {
		printf(\"%d %s %-83s|\\n\", args->pid - 100000000, comm, \"load line padding to one hundred bytes\");
	}" || { kill "$reader"; finish output "$figs"; return; }
	gen_go
	sleep 1
	kill -INT "$SPID"
	tracer_wait
	wait "$reader"
	made2=$(sed -n 's/^events //p' "$work/gen.out")
	lost2=$(sed -n 's/^Lost \([0-9]*\) events$/\1/p' "$work/err")
	lost2=${lost2:-0}
	read -r lines2 bad2 < "$work/burst.count"
	(( bad2 == 0 )) || bad "burst: $bad2 malformed lines"
	(( lines2 + lost2 == made2 )) || bad "burst: lines $lines2 + lost $lost2 != events $made2"
	(( lost2 > 0 )) || bad "burst: nothing lost (the test meant to overflow the ring buffer)"
	figs+="; burst with the reader stopped: $made2 events, $lines2 lines + $lost2 lost"
	finish output "$figs"
}

# 4. FORKS fork+execs of "stress_child" (loadgen through a symlink of
# that name: its comm) that spins 2 ms in spin_here() and exits.  The
# profile probe takes the user stacks of the children only: sonde must
# keep the mappings of those it sampled (their stacks print after they
# exited) and drop the others' at their exit (-v counts both).
case_forks() {
	local out=$work/forks.out child=$work/stress_child figs
	ln -sf "$BIN/loadgen" "$child"
	gen_start "$BIN/loadgen" wait forkexec "$FORKS" "$child" spin 2000 ||
		{ finish forks ""; return; }
	BPFTRACE_MAP_KEYS_MAX=$((FORKS * 2 + 100)) tracer_start 300 "$out" -v -e 'BEGIN { printf("ready\n"); }
	tracepoint:sched:sched_process_exec /comm == "stress_child"/ { @exec = count(); }
	tracepoint:sched:sched_process_exit /comm == "stress_child"/ { @exit = count(); }
	profile:hz:499 /comm == "stress_child"/ {
		@stk[ustack(4)] = count(); @samples = count(); @pids[pid] = count();
	}' || { finish forks ""; return; }
	local t0; t0=$(now)
	gen_go
	local tgen; tgen=$(elapsed "$t0")
	kill -INT "$SPID"
	tracer_wait
	grep -qx "@exec: $FORKS" "$out" || bad "@exec: want $FORKS, got '$(grep '^@exec' "$out")'"
	grep -qx "@exit: $FORKS" "$out" || bad "@exit: want $FORKS, got '$(grep '^@exit' "$out")'"
	local samples spin hex lost sampled kept dropped
	samples=$(sed -n 's/^@samples: //p' "$out")
	sampled=$(grep -c '^@pids\[' "$out")
	# samples whose stack has spin_here, and those whose top frame (the
	# sampled address, not walked) did not symbolize: code without a
	# symbol in ld.so, rarely; frames below the top may be garbage
	# where libc has no frame pointer
	read -r spin hex < <(awk '
		/^@stk\[/ { s = 0; x = 0; top = 1; next }
		/^ +spin_here\+[0-9]+$/ { s = 1 }
		/^ +0x[0-9a-f]+$/ { if (top) x = 1 }
		/^ +/ { top = 0 }
		/^\]: [0-9]+$/ { if (s) sp += $2; if (x) hx += $2 }
		END { print sp + 0, hx + 0 }' "$out")
	(( ${samples:-0} > 0 )) || bad "no profile samples of the children"
	(( spin * 2 >= ${samples:-0} )) || bad "only $spin of $samples samples in spin_here"
	(( hex * 20 <= ${samples:-0} )) || bad "$hex of $samples samples have an unsymbolized top frame"
	# A new stack whose hash bucket in the stack map holds another is
	# lost (and said): some 1 in 40 here, the birthday bound of 6,000
	# stacks (each process's are its own) in 131,072 buckets
	lost=$(sed -n 's/^stacks: \([0-9]*\) stacks lost.*/\1/p' "$work/err")
	lost=${lost:-0}
	(( lost * 20 <= ${samples:-0} )) || bad "$lost of $samples stacks lost"
	# every child's table kept (sampled) or dropped at its exit; a few
	# may be neither where a pid came round again
	read -r kept dropped < <(sed -n 's/^sonde: user symbols: kept the mappings of \([0-9]*\) processes, dropped those of \([0-9]*\) .*/\1 \2/p' "$work/err")
	(( ${dropped:-0} + sampled >= FORKS * 98 / 100 )) ||
		bad "tables: $sampled children sampled, ${dropped:-?} dropped, of $FORKS"
	grep -vE '^(sonde: |stacks: [0-9]+ stacks lost)' "$work/err" | grep -q . &&
		bad "stderr: $(grep -vE '^(sonde: |stacks: )' "$work/err" | head -c 300)"
	local rss base max
	rss=$(rss_growth)
	base=${rss% *} max=${rss#* }
	# the kept tables grow (a few hundred bytes each), nothing else
	(( max - base <= 2048 + ${kept:-0} )) ||
		bad "RSS grew from $(rss_mb "$base") to $(rss_mb "$max") MB with ${kept:-?} tables kept"
	figs="$FORKS fork+exec in ${tgen} s, @exec and @exit $FORKS; ${samples:-0} samples of $sampled children, $spin in spin_here, $hex unsymbolized, $lost lost; tables kept ${kept:-?}, dropped ${dropped:-?}; RSS $(rss_mb "$base") MB a sixth of the way in, max $(rss_mb "$max") MB"
	finish forks "$figs"
}

cases=("$@")
(( ${#cases[@]} )) || cases=(probes keys output forks)
for c in "${cases[@]}"; do
	case $c in
	probes|keys|output|forks) "case_$c" ;;
	*) echo "stress: unknown case $c (probes keys output forks)"; exit 2 ;;
	esac
done
echo "$npass passed, $nfail failed"
(( nfail == 0 ))
