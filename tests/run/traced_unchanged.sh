#!/bin/bash
# Tracing leaves a program alone: with uprobes on every function of it,
# uretprobes, argument reads and a usdt probe whose semaphore the kernel
# raises, tests/progs/compute prints the same, exits the same (3), and
# its file on disk is the same, as when it runs untraced; meanwhile the
# probes saw every call (fib(20) is 21891 calls of fib).
. "$SONDE_ROOT/tests/lib/trace.sh"
p=$PROGS/compute
prog compute
sum0=$(sha256sum < "$p")
"$p" 20 > "$work/plain"
rc0=$?
[[ $rc0 == 3 ]] || die "untraced: exit $rc0, want 3"
tracer_start "$SONDE" -e '
BEGIN { printf("ready\n"); }
uprobe:$1:* { @calls[func] = count(); }
uretprobe:$1:fib { @ret = sum(retval); }
uprobe:$1:hash_str { @w[str(arg0)] = count(); }
usdt:$1:compute:step { @steps = count(); @last = arg0; }' "$p"
"$p" 20 > "$work/traced"
rc1=$?
tracer_stop
[[ $rc1 == "$rc0" ]] || die "traced: exit $rc1, untraced $rc0"
diff -u "$work/plain" "$work/traced" > "$work/diff" || die "output changed: $(cat "$work/diff")"
[[ $(sha256sum < "$p") == "$sum0" ]] || die "the file on disk changed"
grep -qx '@calls\[fib\]: 21891' "$work/out" || die "fib calls: $(grep fib "$work/out")"
grep -qx '@calls\[main\]: 1' "$work/out" || die "main calls: $(cat "$work/out")"
grep -qx '@steps: 64' "$work/out" || die "usdt steps: $(cat "$work/out")"
grep -qx '@last: 63' "$work/out" || die "usdt last: $(cat "$work/out")"
grep -qx '@w\[w0\]: 1' "$work/out" || die "hash_str args: $(cat "$work/out")"
[[ $(grep -c '^@w\[' "$work/out") == 64 ]] || die "hash_str args: $(cat "$work/out")"
stderr_clean
