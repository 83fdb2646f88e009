# Kernel functions that must never be probed are refused before
# anything loads, as bpftrace 0.17 refuses them: a kretprobe on a spin
# lock's fast path, a kprobe on RCU's functions (named: an error;
# matched by a wildcard: left out, and a wildcard left with nothing is
# an error unless the block's other probes attach).
. ./lib
for spec in kretprobe:_raw_spin_lock kretprobe:_raw_spin_lock_irqsave kprobe:rcu_note_context_switch; do
	if "$SONDE" -e "$spec { @ = count(); }" > "$work/out" 2> "$work/err"; then
		die "$spec ran"
	fi
	grep -q "error\[E_PROBE\]: $spec is refused" "$work/err" || die "$spec: $(cat "$work/err")"
done
if "$SONDE" -e 'kprobe:rcu_* { @ = count(); }' > "$work/out" 2> "$work/err"; then
	die "kprobe:rcu_* ran"
fi
grep -q 'error\[E_PROBE\]: No probes to attach: kprobe: no kernel function matches rcu_\*' "$work/err" || die "rcu_*: $(cat "$work/err")"
# with another probe in the block: a warning, and the other attaches
"$SONDE" -e 'kprobe:rcu_*, kprobe:vfs_read { @ = count(); } interval:ms:100 { exit(); }' \
	> "$work/out" 2> "$work/err" || die "mixed block failed: $(cat "$work/err")"
grep -q 'warning: kprobe: no kernel function matches rcu_\*; skipped' "$work/err" || die "no warning: $(cat "$work/err")"
has_line "Attaching 2 probes..."
# a kprobe (not a return probe) on the lock is allowed
"$SONDE" -e 'kprobe:_raw_spin_lock { @ = count(); } interval:ms:100 { exit(); }' \
	> "$work/out" 2> "$work/err" || die "kprobe:_raw_spin_lock failed: $(cat "$work/err")"
