#!/bin/bash
# sonde -lv 'uprobe:FILE:PATTERN' lists each function's parameters from
# DWARF as bpftrace 0.17 does (compared with it when it is installed),
# -l 'uretprobe:...' the functions alone; and the errors of args.NAME
# with a caret: a parameter the function lacks (its parameters listed,
# or none), one of a type sonde cannot read, a function the debug
# information does not describe, args alone over functions whose
# parameters differ, a program without debug information.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# none() with DWARF and no parameters; nodbg() in a unit built without -g
printf 'int none(void) { return 1; }\n' > g.c
printf 'int nodbg(int x) { return x + 1; }\n' > n.c
cc -O1 -c -o n.o n.c && cc -g -O1 -I"$SONDE_ROOT/tests/progs" -o p \
	"$SONDE_ROOT/tests/progs/dwarfargs.c" g.c n.o || exit 1

fail() {
	echo "$1 (- expected, + actual):"
	diff -u <(printf '%s\n' "$2") <(printf '%s\n' "$3") | tail -n +3
	exit 1
}

out=$("$SONDE" -lv 'uprobe:./p:[lmv]*' 2>&1)
want='uprobe:./p:longs
    long int g
    long unsigned int h
    const char* s
    ulong_t u
    enum color col
    _Bool ok
uprobe:./p:main
    int argc
    char** argv
uprobe:./p:many
    long int a1
    long int a2
    long int a3
    long int a4
    long int a5
    long int a6
    long int a7
    char a8
    const char* a9
uprobe:./p:mixed
    double x
    int y
    float z
    long int w
uprobe:./p:values
    struct node* nd
    struct point pt
    struct pair pr
    struct big bg
    long int seventh
    int eighth'
[[ $out == "$want" ]] || fail "sonde -lv" "$want" "$out"

out=$("$SONDE" -lv 'uretprobe:./p:ints' 2>&1)
[[ $out == 'uretprobe:./p:ints' ]] || fail "-lv uretprobe" 'uretprobe:./p:ints' "$out"

# the whole file, as bpftrace lists it
if command -v bpftrace > /dev/null; then
	"$SONDE" -lv 'uprobe:./p:*' > sonde.lv 2>&1
	bpftrace -lv 'uprobe:./p:*' 2>&1 | grep -v RLIMIT_MEMLOCK > bpftrace.lv
	diff -u --label sonde --label bpftrace sonde.lv bpftrace.lv ||
		{ echo "sonde -lv differs from bpftrace -lv"; exit 1; }
fi

# types bpftrace 0.17 prints as '<unknown type>' (volatile, pointers to
# functions and arrays), printed as C declares them
cat > t.c <<'C'
typedef int (*cb_t)(int, char *);
int f1(const void *const r, volatile int *v, char **const pp) { return 0; }
int f2(int (*fn)(int, long), cb_t cb, void (*vf)(void), int (*fa[2])(void)) { return 0; }
int f3(int arr[4], char m[2][3], int (*arrp)[4][5], const volatile unsigned *cv) { return 0; }
int main(void) { return 0; }
C
cc -g -O0 -o t t.c || exit 1
out=$("$SONDE" -lv 'uprobe:./t:f*' 2>&1)
want='uprobe:./t:f1
    const void* const r
    volatile int* v
    char** const pp
uprobe:./t:f2
    int (*)(int, long int) fn
    cb_t cb
    void (*)(void) vf
    int (**)(void) fa
uprobe:./t:f3
    int* arr
    char (*)[3] m
    int (*)[4][5] arrp
    volatile const unsigned int* cv
uprobe:./t:frame_dummy'
[[ $out == "$want" ]] || fail "sonde -lv of C declarators" "$want" "$out"

# errors: NAME CMD-SCRIPT WANT-STDERR
err() {
	local got
	got=$("$SONDE" -d -e "$2" 2>&1 >/dev/null)
	[[ $got == "$3" ]] || fail "$1" "$3" "$got"
}
err unknown 'uprobe:./p:longs { print(args.gg); }' \
"-e:1:26: error[E_TYPE]: can't find function parameter 'gg' in longs; its parameters are: g, h, s, u, col, ok
uprobe:./p:longs { print(args.gg); }
                         ^~~~~~~"
err no-params 'uprobe:./p:none { print(args.x); }' \
"-e:1:25: error[E_TYPE]: can't find function parameter 'x': none has no parameters
uprobe:./p:none { print(args.x); }
                        ^~~~~~"
err not-described 'uprobe:./p:nodbg { print(args.x); }' \
"-e:1:26: error[E_CONTEXT]: the debug information of $dir/p does not describe nodbg: use arg0..arg5
uprobe:./p:nodbg { print(args.x); }
                         ^~~~"
err differs 'uprobe:./p:ints,uprobe:./p:longs { print(args); }' \
"-e:1:42: error[E_TYPE]: 'args' differs between the probes of this block (uprobe:./p:longs)
uprobe:./p:ints,uprobe:./p:longs { print(args); }
                                         ^~~~"
err mixed 'uprobe:./p:ints,tracepoint:syscalls:sys_enter_openat { print(args); }' \
"-e:1:62: error[E_CONTEXT]: 'args' is not a value in tracepoint probes: name a field or argument (args.NAME)
uprobe:./p:ints,tracepoint:syscalls:sys_enter_openat { print(args); }
                                                             ^~~~"
# by address: a function's entry has args, a place inside it none
a=$(nm p | awk '$3 == "ints" { print $1 }')
a=$(printf '0x%x' $((16#$a)))
b=$(printf '0x%x' $((a + 1)))
"$SONDE" -d -e "uprobe:./p:$a { print(args.a); }" > /dev/null 2>&1 ||
	{ echo "args at ints' address $a refused"; exit 1; }
pre="uprobe:./p:$b { print("
err inside "$pre""args.a); }" \
"-e:1:$(( ${#pre} + 1 )): error[E_CONTEXT]: 'args' is only known at a function's entry, and the debug information of $dir/p describes no function starting at $b: use reg()
$pre""args.a); }
${pre//?/ }^~~~"
err double 'uprobe:./p:mixed { print(args.x); }' \
"-e:1:26: error[E_TYPE]: parameter 'x' of mixed is double, which sonde cannot read
uprobe:./p:mixed { print(args.x); }
                         ^~~~~~"

# without debug information
strip -g -o q p || exit 1
# -lv: the functions, and a warning first on stderr, as bpftrace's
out=$("$SONDE" -lv 'uprobe:./q:l*' 2>&1)
want="sonde: warning: $dir/q has no debug information (DWARF): cannot show its functions' parameters
uprobe:./q:longs"
[[ $out == "$want" ]] || fail "-lv without DWARF" "$want" "$out"
out=$("$SONDE" -lv 'uprobe:./q:l*' 2>/dev/null)
[[ $out == 'uprobe:./q:longs' ]] || fail "-lv without DWARF, stdout" 'uprobe:./q:longs' "$out"
out=$("$SONDE" -l 'uprobe:./q:l*' 2>&1)
[[ $out == 'uprobe:./q:longs' ]] || fail "-l without DWARF" 'uprobe:./q:longs' "$out"
got=$("$SONDE" -d -e 'uprobe:./q:longs { print(args.g); }' 2>&1 >/dev/null)
want="-e:1:26: error[E_CONTEXT]: 'args' needs debug information (DWARF), and $dir/q has none, in itself or in /usr/lib/debug/.build-id/@ID@.debug: build it with -g, install its debug file, or use arg0..arg5
uprobe:./q:longs { print(args.g); }
                         ^~~~"
id=$(readelf -n q | sed -n 's/.*Build ID: \(..\)\(.*\)/\1\/\2/p')
if [[ -z $id ]]; then
	want=${want//\/usr\/lib\/debug\/.build-id\/@ID@.debug/a debug file (it has no build id)}
else
	want=${want//@ID@/$id}
fi
[[ $got == "$want" ]] || fail "no DWARF" "$want" "$got"
exit 0
