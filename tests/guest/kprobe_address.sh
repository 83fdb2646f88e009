# kprobe:ADDR (--unsafe) and kprobe:MODULE:FUNC (bpftrace 0.26): the
# address of vfs_read from /proc/kallsyms probes vfs_read, so dd's 5
# reads count 5; probe names the address as written; vmlinux is the
# kernel's own functions.  Without --unsafe, and outside the kernel's
# text, the address is an error.
. ./lib
addr=$(grep ' [Tt] vfs_read$' /proc/kallsyms | cut -d' ' -f1)
[ -n "$addr" ] || skip "no vfs_read in /proc/kallsyms"
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	"kprobe:0x$addr /pid == cpid/ { @[probe] = count(); }" --unsafe
expect "Attaching 1 probe...


@[kprobe:0x$addr]: 5"
stderr_clean
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	'kprobe:vmlinux:vfs_read /pid == cpid/ { @[probe] = count(); }'
expect "Attaching 1 probe...


@[kprobe:vmlinux:vfs_read]: 5"
stderr_clean
"$SONDE" -e "kprobe:0x$addr { }" > "$work/out" 2> "$work/err" && die "no --unsafe: ran"
grep -q "needs --unsafe" "$work/err" || die "no --unsafe: $(cat "$work/err")"
"$SONDE" --unsafe -e "kprobe:0x10 { }" > "$work/out" 2> "$work/err" && die "0x10: ran"
grep -q "0x10 is not in the kernel's text" "$work/err" || die "0x10: $(cat "$work/err")"
"$SONDE" -e "kprobe:nonsense_mod:vfs_read { }" > "$work/out" 2> "$work/err" && die "module: ran"
grep -q "module nonsense_mod is not loaded" "$work/err" || die "module: $(cat "$work/err")"
exit 0
