#!/bin/bash
# Every operand form of the stapsdt format, from hand-written notes
# (tests/usdt/forms.S): registers of each width and %ah, constants
# truncated to their size, off(%reg), (%reg), off(%base,%index,scale),
# sym(%rip), sym+N(%rip) and $sym.
. "$SONDE_ROOT/tests/usdt/lib.sh"
build forms "$USDT/forms.S" "$USDT/forms_main.c"
trace forms -c ./forms -e '
usdt:./forms:forms:regs { printf("regs %d %lx %d %d %d %d %d %d %d %x\n", arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9); }
usdt:./forms:consts { printf("consts %d %d %d %ld %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:./forms:mem { printf("mem %ld %lx %u %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:./forms:sym { printf("sym %s|%s %d\n", str(arg0), str(arg1), arg1 - arg0); }'
same "values of each form" "regs -5 1122334455667788 136 -120 119 22136 86 -1 7 fffffffb
consts 5 -5 200 1234567890123 16 -25536
mem -1000000000000 102030405060708 4000000000 -77 99 -300
sym hello from asm|from asm 6" "$out"

# signed operands make signed values: comparisons and map values
trace signs -c ./forms -e 'usdt:./forms:forms:regs { @lt = arg0 < 0; @s = arg0; @u = arg8; @m = arg3 + arg2; }'
same "signed and unsigned" "@lt: 1
@m: 16
@s: -5
@u: 7" "$(grep @ <<< "$out")"
# prelink moves a file's addresses after the notes were written: the
# notes' pc and base then differ from the code and .stapsdt.base by the
# same amount.  Fake it on the first note (regs): pc and base - 0x1000.
read -r noff < <(readelf -S -W forms | sed -n 's/.*\] \.note\.stapsdt *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
noff=$((16#$noff))
put64() {
	local v=$3 bytes= i
	for i in 0 1 2 3 4 5 6 7; do
		bytes+=$(printf '\\%03o' $(((v >> (8 * i)) & 255)))
	done
	printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cp forms moved
for at in 20 28; do	# after the 12-byte header and "stapsdt\0"
	v=$(od -An -t u8 -j $((noff + at)) -N 8 forms | tr -d ' ')
	put64 moved $((noff + at)) $((v - 4096))
done
[[ $(readelf -n moved | grep -m1 Location:) != $(readelf -n forms | grep -m1 Location:) ]] ||
	{ echo "FAIL: the note was not changed"; exit 1; }
trace moved -c ./moved -e 'usdt:./moved:forms:regs { printf("%d %d\n", arg0, arg8); }'
same "a prelinked file" "-5 7" "$out"
exit 0
