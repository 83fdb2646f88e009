# A kprobe wildcard whose block does not tell the functions apart is one
# kprobe_multi program on one link where the kernel can attach those
# (CONFIG_FPROBE); else, as on Debian's 6.1, one program per function.
# Either way the events are the same: dd reads /proc/version 3 times.
out=$("$SONDE" -v -c 'dd if=/proc/version of=/dev/null bs=100' -e 'kprobe:vfs_rea* /comm == "dd"/ { @k = count(); } kretprobe:vfs_rea* /comm == "dd"/ { @r = count(); }' 2>&1)
if echo "$out" | grep -q 'loaded kprobe:vfs_rea\* (.* functions)'; then
	echo "kprobe_multi"
else
	echo "one program per function"
	echo "$out" | grep -q 'loaded kprobe:vfs_read:' || { echo "no per-function program: $out"; exit 1; }
fi
echo "$out" | grep -q 'skipping' && { echo "a probe was skipped: $out"; exit 1; }
echo "$out" | grep -q '^@k: 3$' || { echo "kprobe events: $out"; exit 1; }
echo "$out" | grep -q '^@r: 3$' || { echo "kretprobe events: $out"; exit 1; }
exit 0
