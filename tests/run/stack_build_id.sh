#!/bin/bash
# ustack in build_id mode (bpftrace 0.26): each frame the build id of
# the file mapped there and the file offset, "ID 0xOFF"; in the call,
# through config stack_mode, and kstack falling back to raw with a
# warning.  The program's frames: leaf, d0, d1 of tests/progs/deepstack,
# whose offsets are the functions' own (a PIE's text is mapped at its
# file offset) plus the return points.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
cd "$work" || exit 1
id=$(readelf -n "$PROGS/deepstack" | awk '/Build ID:/ { print $3 }')
[[ -n $id ]] || die "no build id"
leaf=$(nm "$PROGS/deepstack" | awk '$3 == "leaf" { print $1 }')
s='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { print(ustack(build_id, 3)); print(kstack(build_id, 1)); }'
"$SONDE" -q -c "$PROGS/deepstack 1" -e "$s" > out 2> err || die "$(cat err)"
grep -q "warning: 'build_id' stack mode can only be used for ustack: kstack falls back to 'raw'" err ||
	die "no kstack warning: $(cat err)"
mapfile -t lines < <(grep -E "^$id 0x[0-9a-f]+\$" out)
(( ${#lines[@]} == 3 )) || die "not 3 build-id frames: $(cat out)"
# leaf's frame: its address plus the length of what precedes the syscall
off=$(( 16#${lines[0]##* 0x} - 16#$leaf ))
(( off > 0 && off < 32 )) || die "leaf's offset ${lines[0]} against leaf at $leaf"
grep -qE '^ffffffff[0-9a-f]{8}$' out || die "kstack not raw: $(cat out)"
"$SONDE" -q -c "$PROGS/deepstack 1" -e "config = { stack_mode = build_id } ${s//build_id, /}" > out 2> err ||
	die "config: $(cat err)"
[[ $(grep -cE "^$id 0x[0-9a-f]+\$" out) == 3 ]] || die "config stack_mode: $(cat out)"
echo ok
