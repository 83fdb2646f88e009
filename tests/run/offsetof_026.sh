#!/bin/bash
# offsetof(TYPE, FIELD[.FIELD...]) and offsetof(EXPR, FIELD): a
# constant byte offset, through nested and anonymous structs of the
# script, the kernel's structs (BTF, also of an expression or what a
# pointer points to) and records; sizeof of types and
# expressions beside it.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > o.bt <<'BT'
struct Foo {
	int x;
	struct { struct { struct { int d; } c; long e; } b; } a;
	char s[3];
	union { short u; int v; };
};
BEGIN {
	@x = offsetof(struct Foo, a.b.c.d);
	print((offsetof(struct Foo, x), offsetof(struct Foo, a.b.e),
	       offsetof(struct Foo, s), offsetof(struct Foo, v)));
	$r = (p=(int8)1, q=(int64)2, t="ab");
	print((offsetof($r, q), offsetof($r, t)));
	print(offsetof(struct list_head, prev));
	$t = (struct task_struct *)curtask;
	print(offsetof(*$t, tgid) - offsetof($t, pid));
	print((sizeof(struct Foo), sizeof(uint16), sizeof(int32 *),
	       sizeof($r), sizeof(struct list_head)));
	exit();
}
BT
"$SONDE" --dialect=0.26 o.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "(0, 16, 24, 28)
(8, 16)
8
4
(32, 2, 8, 24, 16)


@x: 8"
exit 0
