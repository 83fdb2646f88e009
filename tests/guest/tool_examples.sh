# The kprobe tools of examples/tools, run as files under -c: biolatency-kp
# sees 8 direct reads of a null_blk device, vfscount counts the vfs_read
# calls of a dd making 5 (among the other VFS calls of the whole system).
. ./lib
tools=$SONDE_ROOT/examples/tools
null_blk
timeout -s KILL 30 "$SONDE" -c "dd if=/dev/nullb0 of=/dev/null bs=4096 count=8 iflag=direct status=none" \
	"$tools/biolatency-kp.bt" > "$work/out" 2> "$work/err" < /dev/null || die "biolatency-kp.bt failed: $(show)"
has_line "Tracing block device I/O... Hit Ctrl-C to end."
has_line "@usecs: "
[ "$(hist_total)" -ge 8 ] || die "the histogram counts $(hist_total) requests, fewer than 8: $(show)"
timeout -s KILL 30 "$SONDE" -c "dd if=$data of=/dev/null bs=200 count=5 status=none" \
	"$tools/vfscount.bt" > "$work/out" 2> "$work/err" < /dev/null || die "vfscount.bt failed: $(show)"
has_line "Tracing VFS calls... Hit Ctrl-C to end."
n=$(sed -n 's/^@\[vfs_read\]: //p' "$work/out")
[ -n "$n" ] && [ "$n" -ge 6 ] || die "vfs_read counted '$n' times, want 6 or more: $(show)"
stderr_clean
