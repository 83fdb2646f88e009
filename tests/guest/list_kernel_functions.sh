# -l lists kernel functions, as bpftrace 0.17 does: kprobe:NAME from
# tracefs's traceable functions (sorted, each once), fentry:NAME (or
# kfunc:NAME when asked as kfunc) from BTF, -lv with the parameters in
# bpftrace's form and retval for fexit; short kind names (k:, f:) work.
. ./lib
"$SONDE" -l 'kprobe:vfs_rea*' > "$work/out" 2> "$work/err" || die "kprobe list failed: $(cat "$work/err")"
has_line "kprobe:vfs_read"
has_line "kprobe:vfs_readv"
stderr_clean
sort -c "$work/out" || die "kprobe list not sorted: $(cat "$work/out")"
[ "$(grep -c . "$work/out")" = "$(sort -u "$work/out" | grep -c .)" ] || die "duplicates: $(cat "$work/out")"
"$SONDE" -l 'k:vfs_read' > "$work/out" 2> "$work/err"
expect "kprobe:vfs_read"
"$SONDE" -l 'kretprobe:vfs_read' > "$work/out" 2> "$work/err"
expect "kretprobe:vfs_read"
"$SONDE" -l 'fentry:vfs_read' > "$work/out" 2> "$work/err"
expect "fentry:vfs_read"
"$SONDE" -l 'kfunc:vfs_read' > "$work/out" 2> "$work/err"
expect "kfunc:vfs_read"
"$SONDE" -lv 'kfunc:vfs_read' > "$work/out" 2> "$work/err"
expect "kfunc:vfs_read
    struct file * file
    char * buf
    size_t count
    loff_t * pos"
"$SONDE" -lv 'fexit:vfs_read' > "$work/out" 2> "$work/err"
expect "fexit:vfs_read
    struct file * file
    char * buf
    size_t count
    loff_t * pos
    ssize_t retval"
# a bare word finds kernel functions among the other kinds
"$SONDE" -l 'vfs_read' > "$work/out" 2> "$work/err"
has_line "kprobe:vfs_read"
has_line "fentry:vfs_read"
# every listed kprobe name attaches (a sample: the first matches)
"$SONDE" -l 'kprobe:tcp_v4_conn*' > "$work/out"
for f in $(cat "$work/out"); do
	"$SONDE" -e "$f { } interval:ms:10 { exit(); }" > /dev/null 2> "$work/err" || die "$f does not attach: $(cat "$work/err")"
done
exit 0
