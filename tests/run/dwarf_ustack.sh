#!/bin/bash
# User stacks walked by the call frame information (bpf/cg_unwind.c),
# on tests/progs/deepstack.c: main -> d11 -> ... -> d0 -> leaf, built
# -O2 -fomit-frame-pointer, leaf making the getppid call itself.
#   - ustack gives every frame, main and libc's start-up above it
#     included, and all N calls aggregate into one map key; with
#     config dwarf_unwind = false (the kernel's frame-pointer walk) the
#     chain is lost after leaf;
#   - through libc: leaf called from qsort()'s comparison function, so
#     the walk crosses libc's own frames (no frame pointers there);
#   - dw_ustack() the same, with bpftrace 0.26's unstable-feature
#     warning, silenced or made an error by config unstable_dw_ustack;
#   - from a uprobe (the probe's own registers), and from a profile
#     probe (samples in the kernel start at the registers of the
#     system call's entry);
#   - a stripped copy of the program with its debug file beside it
#     (.gnu_debuglink): the CFI stays in the stripped file, the names
#     come from the debug file;
#   - -f folded: one line, outermost first.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
N=200
chain="leaf
d0
d1
d2
d3
d4
d5
d6
d7
d8
d9
d10
d11
main"

# the names of the frames of each stack of $work/out, offsets cut
frames() {
	sed -nE 's/^ +([A-Za-z_][A-Za-z0-9_.]*)\+[0-9]+$/\1/p' "${1:-$work/out}"
}

script='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == @TRIG@/ { @[ustack] = count(); }'
trace deepstack $N -- "$SONDE" -p @TRIG@ -e "$script"
stderr_clean
keys=$(grep -c '^@\[' "$work/out")
[[ $keys == 1 ]] || die "ustack: $keys keys, not 1: $(cat "$work/out")"
grep -q "^\]: $N\$" "$work/out" || die "ustack: not $N calls: $(cat "$work/out")"
got=$(frames | head -14)
[[ $got == "$chain" ]] || die "ustack: frames
$got
not
$chain
$(cat "$work/out")"
# above main: libc's start-up, down to _start
frames | tail -1 | grep -qx _start || die "ustack: the outermost frame is not _start: $(cat "$work/out")"

# the kernel's frame-pointer walk stops early
trace deepstack $N -- "$SONDE" -p @TRIG@ -e "config = { dwarf_unwind = false } $script"
frames | grep -qx d5 && die "dwarf_unwind = false still walks the CFI: $(cat "$work/out")"

# through libc's qsort: cmp is called by libc, which calls it from d0
trace deepstack $N qsort -- "$SONDE" -p @TRIG@ -e "$script"
stderr_clean
got=$(frames | grep -v '^leaf$' | head -2)
[[ $got == "cmp"* ]] || die "qsort: no cmp: $(cat "$work/out")"
frames | grep -qx qsort || frames | grep -q '^msort' ||
	die "qsort: no libc frame: $(cat "$work/out")"
for f in d0 d5 d11 main _start; do
	frames | grep -qx $f || die "qsort: no $f: $(cat "$work/out")"
done

# dw_ustack: the same stack; the warning bpftrace 0.26 gives
dscript='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == @TRIG@/ { @[dw_ustack()] = count(); }'
trace deepstack $N -- "$SONDE" -p @TRIG@ -e "config = { dwarf_unwind = false } $dscript"
grep -q "dw_ustack() is an unstable feature" "$work/err" || die "dw_ustack: no warning: $(cat "$work/err")"
got=$(frames | head -14)
[[ $got == "$chain" ]] || die "dw_ustack: frames
$got
$(cat "$work/out")"
trace deepstack 1 -- "$SONDE" -p @TRIG@ -e "config = { unstable_dw_ustack = enable } $dscript"
stderr_clean
out=$("$SONDE" -e 'config = { unstable_dw_ustack = error } BEGIN { @[dw_ustack()] = count(); }' 2>&1) &&
	die "unstable_dw_ustack = error: exit 0"
[[ $out == *"error[E_CONFIG]: dw_ustack() is an unstable feature, disabled by config unstable_dw_ustack = error"* ]] ||
	die "unstable_dw_ustack = error: $out"

# a uprobe on leaf: the probe's registers are the user's
uscript="BEGIN { printf(\"ready\\n\"); }
uprobe:$PROGS/deepstack:leaf /pid == @TRIG@/ { @[ustack] = count(); }"
trace deepstack $N -- "$SONDE" -p @TRIG@ -e "$uscript"
stderr_clean
got=$(frames | head -14)
[[ $got == "$chain" ]] || die "uprobe: frames
$got
$(cat "$work/out")"
grep -q "^\]: $N\$" "$work/out" || die "uprobe: not $N calls: $(cat "$work/out")"

# profile samples: those taken in the kernel (the system call) start at
# the user registers of its entry, and walk to main
pscript='BEGIN { printf("ready\n"); }
profile:hz:997 /pid == @TRIG@/ { @[ustack] = count(); }'
trace deepstack 400000 -- "$SONDE" -p @TRIG@ -e "$pscript"
stderr_clean
grep -B1 -A13 '^ *leaf+' "$work/out" | grep -q '^ *main+' ||
	die "profile: no sample from leaf walks to main: $(cat "$work/out")"

# stripped, with its debug file: CFI from the program, names from the
# debug file (d0..d11 are static: only .symtab has them)
cp "$PROGS/deepstack" "$work/ds" || exit 1
objcopy --only-keep-debug "$work/ds" "$work/ds.debug" &&
	strip -s "$work/ds" &&
	(cd "$work" && objcopy --add-gnu-debuglink=ds.debug ds) || die "strip"
nm "$work/ds" 2>/dev/null | grep -q ' d5$' && die "the copy is not stripped"
p=$PROGS
PROGS=$work
trace ds $N -- "$SONDE" -p @TRIG@ -e "$script"
PROGS=$p
stderr_clean
got=$(frames | head -14)
[[ $got == "$chain" ]] || die "stripped: frames
$got
$(cat "$work/out")"

# folded: one line, main ... leaf
trace deepstack $N -- "$SONDE" -q -p @TRIG@ -f folded -e "$script"
stderr_clean
line=$(grep -v '^ready$' "$work/out")
[[ $line == *";main;d11;d10;d9;d8;d7;d6;d5;d4;d3;d2;d1;d0;leaf $N" ]] ||
	die "folded: $line"
echo ok
