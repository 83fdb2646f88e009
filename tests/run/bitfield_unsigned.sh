#!/bin/bash
# bpftrace reads a bitfield as unsigned whatever its declared type: a
# short b:8 holding 0xd9 prints 217, not -39 (sonde dtrace sign-extends,
# as C and DTrace do: tests/d).  Compared with bpftrace 0.17 when it is
# installed.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
struct bar { short a:4, b:8, c:3, d:1; int e:9, f:15; };
__attribute__((noipa)) int take(struct bar *p) { return p->a; }
int main(void)
{
	struct bar x = { 1, -39, -3, -1, -12, -1651 };
	return take(&x) != 1;
}
C
cc -O1 -o "$dir/p" "$dir/p.c" || exit 1
prog='struct bar { short a:4, b:8, c:3, d:1; int e:9, f:15; }
uprobe:./p:take { $p = (struct bar *)arg0;
	printf("%d %d %d %d %d %d\n", $p->a, $p->b, $p->c, $p->d, $p->e, $p->f); }'
want='1 217 5 1 500 31117'
out=$(cd "$dir" && "$SONDE" -q -c ./p -e "$prog" 2>&1)
[[ $out == "$want"* ]] || { echo "got: $out"; echo "want: $want"; exit 1; }
if command -v bpftrace > /dev/null; then
	out=$(cd "$dir" && timeout 20 bpftrace -c ./p -e "$prog" 2>/dev/null | grep -v '^Attaching')
	[[ $out == "$want"* ]] || { echo "bpftrace says: $out"; exit 1; }
fi
exit 0
