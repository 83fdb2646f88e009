#!/bin/bash
# iter:KIND:PIN pins the iterator (a name under /sys/fs/bpf, or a
# path there) and ends; each read of the file runs it, its printf()s
# formatted by the kernel's bpf_seq_printf() for the reader.  The BPF
# filesystem is mounted in a mount namespace of the test's own.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > pin.sh <<'SH'
set -e
mount -t bpf bpf /sys/fs/bpf
"$SONDE" -e 'iter:task:sonde_pin_test { if (ctx.task.pid == 2) {
	printf("%s:%d %x|%5d|%-4s|%p %% %c %u\n", ctx.task.comm, ctx.task.pid,
	       255, 42, "ab", 4096, 65, -1); } }' > out1 2> err1
cat /sys/fs/bpf/sonde_pin_test > read1
cat /sys/fs/bpf/sonde_pin_test > read2
"$SONDE" -e 'iter:task_file:/sys/fs/bpf/sonde_pin_files { if (ctx.task.pid == 2 && ctx.fd == 0) { printf("fd0\n"); } }' > out2 2> err2 || true
# pinning twice to one file fails
if "$SONDE" -e 'iter:task:sonde_pin_test { printf("x\n"); }' > out3 2> err3; then
	echo "pinned twice"
fi
rm -f /sys/fs/bpf/sonde_pin_test /sys/fs/bpf/sonde_pin_files
SH
SONDE=$SONDE unshare -m bash pin.sh || die "pin.sh failed: $(cat err1 2> /dev/null)"
grep -qx "Program pinned to /sys/fs/bpf/sonde_pin_test" out1 || die "out1: $(cat out1) $(cat err1)"
[[ $(cat read1) == "kthreadd:2 ff|   42|ab  |0x1000 % A 18446744073709551615" ]] || die "read1: $(cat read1)"
cmp -s read1 read2 || die "second read differs: $(cat read2)"
grep -qx "Program pinned to /sys/fs/bpf/sonde_pin_files" out2 || die "absolute pin: $(cat out2) $(cat err2)"
grep -q 'cannot pin the iterator to /sys/fs/bpf/sonde_pin_test: File exists' err3 || die "pinned twice: $(cat err3)"
# without a BPF filesystem: says how to mount one
unshare -m bash -c 'mount -t tmpfs none /sys/fs/bpf && "$0" -e "iter:task:x { printf(\"x\n\"); }"' "$SONDE" > out 2> err &&
	die "pinned on tmpfs"
grep -q 'is a BPF filesystem mounted there' err || die "no hint: $(cat err)"
exit 0
