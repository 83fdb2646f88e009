#!/bin/bash
# Structs written in the script: C layout (alignment, bitfields, char
# arrays, nested pointers) read from a traced program's memory; enums
# as constants; #include lines and kernel structs come from BTF.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
#include <string.h>
struct item { int a; char b; unsigned int lo : 3, hi : 5; char name[8]; long tail; struct item *next; };
__attribute__((noipa)) long take(struct item *p) { return p->tail; }
int main(void)
{
	struct item second = { 7, 'y', 2, 30, "second", -5, 0 };
	struct item first = { 1, 'x', 5, 17, "first", 123456789012, &second };
	return take(&first) == 0;
}
C
cc -O1 -o "$dir/p" "$dir/p.c" || exit 1
cat > "$dir/s.bt" <<'BT'
#include <linux/sched.h>
struct item { int a; char b; unsigned int lo : 3, hi : 5; char name[8]; long tail; struct item *next; };
enum level { LOW, MID = 10, HIGH };
uprobe:./p:take {
	$p = (struct item *)arg0;
	printf("%d %c %d %d %s %ld\n", $p->a, $p->b, $p->lo, $p->hi, $p->name, $p->tail);
	printf("%d %s %d %d\n", $p->next->a, $p->next->name, $p->next->tail, sizeof(struct item));
	printf("%d %d\n", HIGH, ((struct task_struct *)curtask)->pid == tid);
}
BT
out=$(cd "$dir" && "$SONDE" -q -c ./p s.bt 2>&1)
want=$(printf '1 x 5 17 first 123456789012\n7 second -5 32\n11 1\n\n')
[[ "$out" == "$want"* ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
