#!/bin/bash
# uprobes' args.NAME (and args->NAME) by DWARF: tests/progs/dwarfargs.c
# built by gcc at -O0 (parameters are stored into the frame after the
# prologue: the calling convention places them at the entry), -O2 (the
# DWARF location lists place them), -O1 without PIE, with DWARF 2's
# encodings (bitfields' DW_AT_bit_offset, member offsets as
# expressions), and by clang when it is installed; and with the debug
# information moved to a file of its own, beside the program and in its
# .debug/ directory (.gnu_debuglink), and libc's by build id when
# libc6-dbg is installed.  Every value of every width, sign
# and kind must arrive exactly: integers, a string, a typedef, an enum,
# a _Bool, a struct's members through a pointer (a nested struct, a
# char array, bitfields, an anonymous union, a pointer to its own
# type), structs by value in one register, in two and on the stack,
# arguments past the sixth, the integers among doubles and a float,
# the arguments after a large struct's hidden return pointer, and an
# array of strings; and args alone, a struct of the parameters sonde
# can read, printed, kept in a variable and as a map key.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
src=$SONDE_ROOT/tests/progs/dwarfargs.c

script='
uprobe:@P@:ints { printf("ints %d %d %d %d %d %u\n", args.a, args.b, args.c, args.d, args.e, args.f); print(args); @ints[args] = count(); }
uprobe:@P@:longs { printf("longs %ld %lu %s %lu %d %d\n", args.g, args.h, str(args.s), args->u, args->col, args.ok); }
uprobe:@P@:values {
	printf("node %d %s %d %d %d %d %d %d %s\n", args.nd->val, args.nd->name,
	       args.nd->p.y, args.nd->flag, args.nd->level, args.nd->i,
	       args.nd->next->val, args.nd->next->b[0], args.nd->next->name);
	print(args.pt); print(args.pr); print(args.bg);
	printf("%d %ld %d %s %d %d\n", args.pt.y, args.pr.a, args.bg.v[2],
	       args.bg.tag, args.seventh, args.eighth);
	@pt[args.pt] = count(); @p = args.nd->p; @big = args.bg;
}
uprobe:@P@:many { printf("many %d %d %c %s\n", args.a6, args.a7, args.a8, str(args.a9)); }
uprobe:@P@:mixed { printf("mixed %d %d\n", args.y, args.w); $m = args; print($m); }
uprobe:@P@:ret_big { printf("ret_big %d %d\n", args.k, args.m); }
uprobe:@P@:strings { printf("strings %d %s %s %d\n", args.n, str(args.list[0]), str(args.list[1]), args.list[2]); }'

want='ints -1 255 -300 60000 -70000 4000000000
{ .a = -1, .b = 255, .c = -300, .d = 60000, .e = -70000, .f = 4000000000 }
longs -5000000000 18000000000000000000 hello 123456789012 5 1
node 1 one 6 7 31 -1 2 4 two
{ .x = 100, .y = -200 }
{ .a = -3000000000, .b = 4000000000 }
{ .v = [7,8,9], .tag = bigtag }
-200 -3000000000 9 bigtag 77 -88
many 6 7 x hello
mixed 3 4
{ .y = 3, .w = 4 }
ret_big 10 20
strings 2 one two 0


@big: { .v = [7,8,9], .tag = bigtag }
@ints[{.a=-1,.b=255,.c=-300,.d=60000,.e=-70000,.f=4000000000}]: 1
@p: { .x = 5, .y = 6 }
@pt[{.x=100,.y=-200}]: 1'

# check NAME BINARY: the script on BINARY must print $want.
check() {
	local out
	out=$("$SONDE" -q -c "$2" -e "${script//@P@/$2}" 2>&1)
	if [[ $out != "$want" ]]; then
		echo "$1: output differs (- expected, + actual):"
		diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$out") | tail -n +3
		exit 1
	fi
}

build() {
	local name=$1
	shift
	"$@" -I"$SONDE_ROOT/tests/progs" -o "$dir/$name" "$src" ||
		{ echo "cannot build $name: $*"; exit 1; }
}

build gcc-O0 gcc -g -O0
build gcc-O2 gcc -g -O2
build gcc-O1-nopie gcc -g -O1 -no-pie -fno-pie
build gcc-dwarf2 gcc -gdwarf-2 -gstrict-dwarf -O1
for b in gcc-O0 gcc-O2 gcc-O1-nopie gcc-dwarf2; do
	check "$b" "$dir/$b"
done
if command -v clang > /dev/null; then
	build clang-O0 clang -g -O0
	build clang-O2 clang -g -O2
	check clang-O0 "$dir/clang-O0"
	check clang-O2 "$dir/clang-O2"
fi

# The debug information in a file of its own, found by .gnu_debuglink
# beside the program, then in its .debug directory.
cp "$dir/gcc-O2" "$dir/split"
objcopy --only-keep-debug "$dir/split" "$dir/split.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$dir/split.debug" "$dir/split" ||
	{ echo "objcopy failed"; exit 1; }
readelf -S "$dir/split" | grep -q debug_info && { echo "split still has .debug_info"; exit 1; }
check debuglink "$dir/split"
mkdir "$dir/.debug"
mv "$dir/split.debug" "$dir/.debug/"
check debuglink-.debug "$dir/split"

# A library's debug file by build id, where Debian's -dbg packages put
# it (libc6-dbg), when it is installed: malloc's parameter by name.
libc=$(ldd "$dir/gcc-O0" | awk '/libc\.so/ { print $3 }')
id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: \(..\)\(.*\)/\1\/\2/p')
if [[ -n $id && -f /usr/lib/debug/.build-id/$id.debug ]]; then
	cat > "$dir/m.c" <<'C'
#include <stdlib.h>
int main(void) { return malloc(123457) == NULL; }
C
	cc -o "$dir/m" "$dir/m.c" || exit 1
	out=$("$SONDE" -lv "uprobe:$libc:malloc" 2>&1)
	[[ $out == "uprobe:$libc:malloc"$'\n''    size_t bytes' ]] ||
		{ echo "-lv of libc's malloc: $out"; exit 1; }
	out=$("$SONDE" -q -c "$dir/m" -e "uprobe:$libc:malloc /args.bytes == 123457/ { @ = count(); }" 2>&1)
	[[ $out == $'\n\n''@: 1' ]] || { echo "libc's malloc args.bytes: $out"; exit 1; }
fi
exit 0
