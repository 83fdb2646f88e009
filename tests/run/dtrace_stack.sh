#!/bin/bash
# D's stack() and ustack(): as actions, a frame a line indented by 14,
# module`function+0xoffset (the kernel's module vmlinux); as keys of an
# aggregation, the same frames above the value.
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$("$SONDE" dtrace -qn 'syscall::exit_group:entry /pid == $target/ { stack(); ustack(); exit(0); }' -c /bin/true)
grep -qE '^              vmlinux`do_syscall_64\+0x[0-9a-f]+$' <<< "$out" || { echo "FAIL stack(): $out"; exit 1; }
grep -qE '^              libc\.so\.6`_exit(\+0x[0-9a-f]+)?$' <<< "$out" || { echo "FAIL ustack(): $out"; exit 1; }
out=$("$SONDE" dtrace -qn 'syscall::exit_group:entry /pid == $target/ { @[stack()] = count(); exit(0); }' -c /bin/true)
grep -qE '^              vmlinux`do_syscall_64\+0x[0-9a-f]+$' <<< "$out" || { echo "FAIL @[stack()]: $out"; exit 1; }
grep -qE '^ +1$' <<< "$out" || { echo "FAIL @[stack()] count: $out"; exit 1; }
exit 0
