# kernels: 6.1 6.12
# A kprobe wildcard whose block does not tell the functions apart is one
# kprobe_multi program on one link where the kernel can attach those
# (CONFIG_FPROBE: 6.12); else, as on Debian's 6.1, one program per
# function.  Either way the events are the same: dd reads 5 times and
# writes 5 times.
. ./lib
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	'kprobe:vfs_rea?,kprobe:vfs_writ? /pid == cpid/ { @k = count(); } kretprobe:vfs_rea?,kretprobe:vfs_writ? /pid == cpid/ { @r = count(); }' -v
if grep -q 'loaded kprobe:vfs_rea? (2 functions)' "$work/err"; then
	echo "kprobe_multi"
	grep -q 'loaded kretprobe:vfs_rea? (2 functions)' "$work/err" ||
		die "kretprobe not merged: $(show)"
else
	case $(uname -r) in
	6.1.*) echo "one program per function" ;;
	*) die "not one kprobe_multi link on $(uname -r): $(show)" ;;
	esac
	grep -q 'loaded kprobe:vfs_read:' "$work/err" ||
		die "no per-function program: $(show)"
fi
grep -q 'skipping' "$work/err" && die "a probe was skipped: $(show)"
has_line "@k: 10"
has_line "@r: 10"
