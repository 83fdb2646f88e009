# kprobe override() for real, in a kernel built with
# CONFIG_BPF_KPROBE_OVERRIDE (tools/build-override-kernel; Debian's
# kernels lack it, so this skips in the guest tier): the openat system
# call, whose wrapper is on the error-injection list (as every system
# call's), returns ENOENT to the traced cat without running, so it
# cannot open its file, while others can; the rest of the block runs.
. ./lib
zcat /proc/config.gz 2>/dev/null | grep -q "^CONFIG_BPF_KPROBE_OVERRIDE=y" ||
	skip "no CONFIG_BPF_KPROBE_OVERRIDE in this kernel (tools/build-override-kernel builds one)"
trace "cat $text" 'kprobe:__x64_sys_open,kprobe:__x64_sys_openat /pid == cpid && comm == "cat"/ { override(-2); @n = count(); }' --unsafe
grep -q "hello guest" "$work/out" && die "the traced cat read its file: $(show)"
grep -q "cat: can't open '$text': No such file or directory" "$work/err" ||
	die "the traced cat did not fail with ENOENT: $(show)"
grep -q '^@n: [1-9]' "$work/out" || die "no override counted: $(show)"
cat "$text" | grep -q "hello guest" || die "an untraced cat failed"
exit 0
