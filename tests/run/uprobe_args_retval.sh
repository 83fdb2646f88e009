#!/bin/bash
# uprobe/uretprobe on a PIE and a non-PIE program started by -c: every
# call arrives with its arguments, return values and func, exactly.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) long add3(long a, long b, long c) { return a + b * 10 + c * 100; }
int main(void) { long s = 0; for (int i = 0; i < 4; i++) s += add3(i, 7, 2); return s == 0; }
C
for pie in -pie -no-pie; do
	cc -O1 -fPIE $pie -o "$dir/p" "$dir/p.c" 2>/dev/null || cc -O1 $pie -o "$dir/p" "$dir/p.c" || exit 1
	out=$("$SONDE" -q -c "$dir/p" -e "uprobe:$dir/p:add3 { printf(\"%s %d %d %d\\n\", func, arg0, arg1, arg2); }
		uretprobe:$dir/p:add3 { @[retval] = count(); }" 2>&1)
	want=$(printf 'add3 0 7 2\nadd3 1 7 2\nadd3 2 7 2\nadd3 3 7 2\n\n\n@[270]: 1\n@[271]: 1\n@[272]: 1\n@[273]: 1')
	if [[ "$out" != "$want" ]]; then
		echo "$pie: got:"; echo "$out"; echo "want:"; echo "$want"; exit 1
	fi
done
exit 0
