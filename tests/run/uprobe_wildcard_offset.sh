#!/bin/bash
# Wildcards over function names, FUNC+OFFSET, a raw address, reg() and
# the uprobe: short alias.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
__attribute__((noinline)) int work_a(int x) { return x + 1; }
__attribute__((noinline)) int work_b(int x) { return x + 2; }
__attribute__((noinline)) int other(int x) { return x + 3; }
int main(void) { return work_a(1) + work_b(2) + work_b(3) + other(4) == 0; }
C
cc -O1 -no-pie -o "$dir/p" "$dir/p.c" || exit 1
addr=$(nm "$dir/p" | awk '$3 == "other" { print "0x" $1 }')
out=$("$SONDE" -q -c "$dir/p" -e "u:$dir/p:work_* { @[probe] = count(); }
	uprobe:$dir/p:$addr { @addr = count(); @di = reg(\"di\"); }
	uprobe:$dir/p:work_a+0 { @off = count(); }" 2>&1)
want="

@[uprobe:$dir/p:work_a]: 1
@[uprobe:$dir/p:work_b]: 2
@addr: 1
@di: 4
@off: 1"
[[ "$out" == "$want" ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
