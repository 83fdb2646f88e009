#!/bin/bash
# -d STAGE (bpftrace 0.26): print what the stage made, then run the
# script; -d alone stays bpftrace 0.17's (print the BPF, do not run).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q -d ast -e 'BEGIN { printf("ran\n"); exit(); }' > out 2> err || die "-d ast: $(cat err)"
expect 'Program
  probe
    attach point BEGIN
    block
      expression statement
        call printf :: void
          string "ran\n"
      expression statement
        call exit :: void
ran

'
"$SONDE" -q -d dis,verifier -e 'BEGIN { printf("ran\n"); exit(); }' > out 2> err || die "-d dis,verifier: $(cat err)"
grep -q '^BEGIN: raw_tracepoint, [0-9]* insns$' out || die "-d dis: no BPF: $(cat out)"
grep -q '^ran$' out || die "-d dis did not run"
grep -q '^verifier log of BEGIN:$' err || die "-d verifier: $(cat err)"
grep -q '^processed [0-9]* insns' err || die "-d verifier: no log: $(cat err)"
"$SONDE" -q -d all -e 'BEGIN { printf("ran\n"); exit(); }' > out 2> err || die "-d all: $(cat err)"
grep -q '^ran$' out && grep -q '^Program$' out && grep -q '^BEGIN: raw_tracepoint' out || die "-d all: $(cat out)"
# 0.17's -d: the BPF, nothing run
"$SONDE" -d -e 'BEGIN { printf("ran\n"); exit(); }' > out 2> err || die "-d: $(cat err)"
grep -q '^ran$' out && die "-d alone ran the script"
grep -q '^BEGIN: raw_tracepoint' out || die "-d alone: $(cat out)"
echo ok
