#!/bin/bash
# Pointers to pointers, cast (int32 **) or declared (struct foo **): +1
# steps over one pointer, * gives the pointer they point to, typed, so
# that **, ->, . and [] read through both levels.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
struct foo { int a; char b; };
__attribute__((noipa)) int take(int **p, struct foo **f) { return **p + (*f)->a; }
int main(void)
{
	int one = 1, two = 2;
	int *arr[2] = { &one, &two };
	struct foo x = { 5, 'c' };
	struct foo *fp = &x;
	return take(arr, &fp) != 6;
}
C
cc -O1 -o "$dir/p" "$dir/p.c" || exit 1
cat > "$dir/s.bt" <<'BT'
struct foo { int a; char b; };
uprobe:./p:take {
	$p = (int32 **)arg0;
	$f = (struct foo **)arg1;
	printf("%d %d %d %d\n", (uint64)($p + 1) - (uint64)$p, **$p, **($p + 1), *$p[1]);
	printf("%d %c %d\n", (*$f)->a, (*$f)->b, (**$f).a);
}
BT
out=$(cd "$dir" && "$SONDE" -q --dialect=0.26 -c ./p s.bt 2>&1)
want=$(printf '8 1 2 2\n5 c 5\n')
[[ "$out" == "$want"* ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
