#!/bin/bash
# JIT code named by /tmp/perf-PID.map, in a mixed stack: tests/progs/
# jitmap.c copies a small function (frame set up, getppid system call)
# into anonymous executable memory, names it jit_getppid in its perf
# map, and calls it from caller (no frame pointer, call frame
# information) N times.  At the system call the user stack is
# jit_getppid (from the perf map: no file maps it), then caller (the
# walker stepped by the JIT frame's frame pointer, then by caller's
# CFI), then main: one map key.  In perf mode the frame names the map
# file; usym() names the JIT function too.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog jitmap
trap 'rm -f "/tmp/perf-$pid.map"; trace_cleanup' EXIT
pid=
script='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == @TRIG@/ {
	@[ustack] = count(); @p[ustack(perf, 1)] = count(); }
uprobe:@PROG@:caller /pid == @TRIG@/ { @u[usym(arg0)] = count(); }'
script=${script//@PROG@/$PROGS/jitmap}
trigger_start jitmap 5
pid=$TRIG
tracer_start "$SONDE" -p "$TRIG" -e "${script//@TRIG@/$TRIG}"
trigger_go
tracer_stop
stderr_clean
frames=$(sed -nE 's/^    ([A-Za-z_][A-Za-z0-9_]*)\+[0-9]+$/\1/p' "$work/out" | head -3 | tr '\n' ' ')
[[ $frames == "jit_getppid caller main " ]] || die "frames: $frames
$(cat "$work/out")"
grep -qE '^    jit_getppid\+11$' "$work/out" || die "no jit_getppid+11: $(cat "$work/out")"
grep -q '^\]: 5$' "$work/out" || die "not one key of 5: $(cat "$work/out")"
grep -qE "^	[0-9a-f]+ jit_getppid\+11 \(/tmp/perf-$pid\.map\)$" "$work/out" ||
	die "perf mode: $(cat "$work/out")"
grep -q '^@u\[jit_getppid\]: 5$' "$work/out" || die "usym: $(cat "$work/out")"
echo ok
