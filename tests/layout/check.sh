#!/bin/bash
# tests/layout/check.sh - tools/check-layout over the tree (the layers,
# no circles, the size limits: docs/internals.md), and over made-up
# trees that break each rule, so that the check is known to catch them.
# Run from the repository root by tests/run-tests.sh; OBJDIR (default
# build/obj) holds the objects "make" built.
set -u
objdir=${1:-build/obj}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! out=$(tools/check-layout "$objdir" 2>&1); then
	echo "src/ breaks the layout rules:"
	echo "$out"
	fail=1
fi

# expect NAME PATTERN: the made-up tree in $tmp/src must be refused with
# a line matching PATTERN.
expect() {
	local got
	if got=$(tools/check-layout --src "$tmp/src" "$tmp/obj" 2>&1); then
		echo "check-layout accepted a tree with $1"
		fail=1
	elif ! grep -qE "$2" <<< "$got"; then
		echo "check-layout did not say /$2/ of a tree with $1:"
		echo "$got"
		fail=1
	fi
}

# A tree that obeys the rules, then one break at a time.
fresh() {
	rm -rf "$tmp/src" "$tmp/obj"
	mkdir -p "$tmp/src/base" "$tmp/src/sema" "$tmp/src/run" "$tmp/obj"
	printf '#ifndef A_H\n#define A_H\nint base_a(void);\n#endif\n' > "$tmp/src/base/a.h"
	printf '#include "base/a.h"\nint base_a(void)\n{\n\treturn 1;\n}\n' > "$tmp/src/base/a.c"
	printf 'int run_b(void);\n' > "$tmp/src/run/b.h"
	printf '#include "run/b.h"\n#include "base/a.h"\nint run_b(void)\n{\n\treturn base_a();\n}\n' > "$tmp/src/run/b.c"
}
objects() {
	local c
	for c in "$tmp"/src/*/*.c; do
		c=${c#"$tmp"/src/}
		mkdir -p "$tmp/obj/$(dirname "$c")"
		cc -c -I"$tmp/src" -o "$tmp/obj/${c%.c}.o" "$tmp/src/$c" || fail=1
	done
}

fresh
objects
if ! got=$(tools/check-layout --src "$tmp/src" "$tmp/obj" 2>&1); then
	echo "check-layout refused a tree that keeps the rules:"
	echo "$got"
	fail=1
fi

fresh
printf '#include "run/b.h"\n' >> "$tmp/src/base/a.h"
expect "an include up the layers" 'base/ includes run/b.h'

fresh
printf 'int run_b(void);\nint base_up(void)\n{\n\treturn run_b();\n}\n' >> "$tmp/src/base/a.c"
objects
expect "a call up the layers" 'calls run_b\(\) of src/run/b.c'

fresh
printf 'int y(void);\nint x(void)\n{\n\treturn y();\n}\n' > "$tmp/src/sema/x.c"
printf 'int x(void);\nint y(void)\n{\n\treturn x();\n}\n' > "$tmp/src/sema/y.c"
objects
expect "files calling each other in a circle" 'in a circle without a private header'

fresh
printf '#include "base/a.h"\n' > "$tmp/src/base/c.h"
printf '#include "base/c.h"\n' >> "$tmp/src/base/a.h"
sed -i '1i #include "base/a.h"' "$tmp/src/base/c.h"
printf '#include "base/c.h"\n' > "$tmp/src/base/c.c"
expect "headers including each other" 'headers include each other in a circle'

fresh
{ printf 'int long_one(void)\n{\n\tint n = 0;\n'
  for i in $(seq 150); do printf '\tn += %d;\n' "$i"; done
  printf '\treturn n;\n}\n'; } > "$tmp/src/sema/long.c"
expect "a function of 155 lines" 'long_one\(\) is 155 lines, more than 150'

fresh
seq 1201 | sed 's|.*|/* line & */|' > "$tmp/src/sema/big.c"
expect "a file of 1201 lines" 'big.c: 1201 lines, more than 1200'

fresh
printf 'int kind(int k)\n{\n\treturn k == PK_KPROBE;\n}\n' > "$tmp/src/sema/kind.c"
expect "a probe kind named outside probe/" 'sema/kind.c:3: names a probe kind'

fresh
mkdir -p "$tmp/src/misc"
printf 'int misc(void);\n' > "$tmp/src/misc/m.h"
expect "a folder that is not a layer" 'src/misc: not a layer'

exit $fail
