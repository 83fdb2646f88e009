# kernels: 6.1 6.12
# A kprobe wildcard whose block tells its functions apart (probe, func)
# prints the same through one kprobe_multi link, each function's name
# read from a table its link cookie selects, as through one program per
# function (--no-feature kprobe_multi).  On 6.12 (fprobe) the first must
# be one link; 6.1 has no kprobe_multi, so both are per function there.
. ./lib
prog='kprobe:vfs_rea*,kprobe:vfs_writ* /pid == cpid/ { @p[probe] = count(); @f[func] = count(); }
kretprobe:vfs_rea* /pid == cpid/ { @r[probe] = sum(retval); }'
cmd="dd if=$data of=/dev/null bs=123 count=5 status=none"
trace "$cmd" "$prog" -v
cp "$work/out" "$work/multi"
if grep -q 'loaded kprobe:vfs_rea\* ([0-9]* functions)' "$work/err"; then
	echo "kprobe_multi"
else
	case $(uname -r) in
	6.1.*) echo "one program per function" ;;
	*) die "not one kprobe_multi link on $(uname -r): $(show)" ;;
	esac
fi
grep -q 'loaded kretprobe:vfs_rea\* ([0-9]* functions)' "$work/err" ||
	case $(uname -r) in 6.1.*) ;; *) die "kretprobe: not one link: $(show)" ;; esac
trace "$cmd" "$prog" --no-feature kprobe_multi
grep -q 'functions)' "$work/err" && die "--no-feature kprobe_multi merged: $(show)"
has_line "@p[kprobe:vfs_read]: 5"
has_line "@p[kprobe:vfs_write]: 5"
has_line "@f[vfs_read]: 5"
has_line "@f[vfs_write]: 5"
# 1000 bytes in reads of 123: 8 of 123, one of 16 (dd count=5: 5 x 123)
has_line "@r[kretprobe:vfs_read]: 615"
if ! cmp -s "$work/multi" "$work/out"; then
	echo "the two paths differ (- kprobe_multi, + per function):"
	diff -u "$work/multi" "$work/out" | tail -n +3
	exit 1
fi
