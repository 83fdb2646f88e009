# kprobe override() for real, in a kernel built with
# CONFIG_BPF_KPROBE_OVERRIDE (tools/build-override-kernel; Debian's
# kernels lack it, so this skips in the guest tier): should_failslab,
# on the error-injection list, makes the traced cat's slab allocations
# fail, so it cannot open its file, while others can.
. ./lib
zcat /proc/config.gz 2>/dev/null | grep -q "^CONFIG_BPF_KPROBE_OVERRIDE=y" ||
	skip "no CONFIG_BPF_KPROBE_OVERRIDE in this kernel (tools/build-override-kernel builds one)"
trace "cat $text" 'kprobe:should_failslab /pid == cpid && comm == "cat"/ { override(-12); @n = count(); }' --unsafe
grep -q "hello guest" "$work/out" && die "the traced cat read its file: $(show)"
grep -q "cat: can't open '$text'" "$work/err" || die "the traced cat did not fail: $(show)"
grep -q '^@n: [1-9]' "$work/out" || die "no override counted: $(show)"
cat "$text" | grep -q "hello guest" || die "an untraced cat failed"
exit 0
