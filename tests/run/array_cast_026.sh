#!/bin/bash
# 0.26's array types: (int8[8])x casts an integer to its bytes, (T[])x
# finds the count, (uint64)a casts an integer array back; sizeof(T[N]).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > a.bt <<'BT'
BEGIN {
	$a = (int8[8])12345;
	printf("%x %x\n", $a[0], $a[1]);
	printf("%d\n", (uint64)$a);
	@b = (bool[2])(uint16)1;
	@u = (uint8[])(uint32)0x01020304;
	print(sizeof(int32[4]));
	print((uint32)pton("127.0.0.1") == 0x0100007f);
	exit();
}
BT
"$SONDE" --dialect=0.26 a.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "39 30
12345
16
true


@b: [true,false]
@u: [4,3,2,1]"
exit 0
