# kernels: 6.1 6.12
# kprobe wildcard: every attachable vfs_* function, one probe each; func
# names the one that fired.  dd reads 5 times and writes 5 times.
. ./lib
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	'kprobe:vfs_* /pid == cpid/ { @[func] = count(); }'
n=$(sed -n 's/^Attaching \([0-9]*\) probes\.\.\.$/\1/p' "$work/out")
[ -n "$n" ] || die "no 'Attaching N probes...' line: $(show)"
# About 80 on 6.1; a few are not attachable (notrace, inlined).
[ "$n" -ge 40 ] || die "only $n vfs_* probes attached"
has_line "@[vfs_read]: 5"
has_line "@[vfs_write]: 5"
grep -q '^@\[vfs_open\]: [1-9]' "$work/out" || die "vfs_open did not fire: $(show)"
stderr_clean
