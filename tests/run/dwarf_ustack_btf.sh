#!/bin/bash
# The stack walker needs the kernel's BTF for the members it reads of a
# mapping (vm_area_struct, file, inode, super_block, task_struct's mm).
# With a BTF that lacks them (BPFTRACE_BTF naming a file of one int):
# dw_ustack() is an error located at the call, plain ustack quietly
# stays the kernel's frame-pointer stack and the script runs.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
python3 - <<'PY' || die "python3"
import struct
strs = b"\0int\0"
types = struct.pack("<III", 1, 1 << 24, 4) + struct.pack("<I", 32)
hdr = struct.pack("<HBBIIIII", 0xeB9F, 1, 0, 24, 0, len(types), len(types), len(strs))
open("tiny.btf", "wb").write(hdr + types + strs)
PY
export BPFTRACE_BTF=$work/tiny.btf
"$SONDE" --dialect=0.26 -e 'config = { unstable_dw_ustack = enable } begin { @[dw_ustack()] = count(); exit(); }' > out 2> err &&
	die "dw_ustack() without the BTF: exit 0"
grep -q "^-e:1:52: error\[E_CONTEXT\]: dw_ustack() reads the kernel's memory mappings, and this kernel's BTF does not describe struct vm_area_struct's vm_start$" err ||
	die "dw_ustack(): $(cat err)"
grep -q '^ *\^~*$' err || die "no caret: $(cat err)"
"$SONDE" --dialect=0.26 -q -e 'begin { @[ustack(2)] = count(); exit(); }' > out 2> err ||
	die "plain ustack without the BTF: $(cat err)"
grep -q '^\]: 1$' out || die "plain ustack: $(cat out)"
"$SONDE" --dialect=0.26 -v -q -e 'begin { @[ustack(2)] = count(); exit(); }' 2>&1 | grep -q 'dwstack' &&
	die "the walker's map without the BTF"
echo ok
