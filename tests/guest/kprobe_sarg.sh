# kprobe: sargN reads the kernel stack at the function's entry.  6.1's
# do_mmap(file, addr, len, prot, flags, pgoff, populate, uf) takes its
# last two arguments there: populate points into its caller's frame on
# the kernel stack, so sarg0 is a kernel address and near the stack
# pointer; kptr() and '*' read the word there.
. ./lib
trace "dd if=$text of=/dev/null status=none" \
	'kprobe:do_mmap /pid == cpid/ {
		$sp = reg("sp");
		@[sarg0 > 0xffff000000000000, sarg0 > $sp && sarg0 - $sp < 16384] = count();
		$v = *kptr(sarg0);
	}'
grep -q '^@\[1, 1\]: [1-9]' "$work/out" || { show; die "sarg0 is not a kernel stack address"; }
stderr_clean
