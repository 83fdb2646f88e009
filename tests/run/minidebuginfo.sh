#!/bin/bash
# MiniDebugInfo: a stripped program carrying the .symtab of its local
# functions in .gnu_debugdata, xz-compressed, as Fedora's find-debuginfo
# makes it.  The stripped copy alone prints addresses for its static
# functions; with .gnu_debugdata it prints their names.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
command -v xz > /dev/null || { echo "no xz"; exit 77; }
cd "$work" || exit 1
cp "$PROGS/deepstack" ds || exit 1
objcopy --only-keep-debug ds ds.dbg || die "objcopy"
nm ds.dbg --format=posix --defined-only | awk '$2 ~ /^[Tt]$/ { print $1 }' | sort > funcs
nm -D ds --format=posix --defined-only | awk '{ print $1 }' | sort > dyn
comm -13 dyn funcs > keep
objcopy -S --remove-section .gdb_index --remove-section .comment \
	--keep-symbols=keep ds.dbg mini || die "mini"
xz -f mini || die "xz"
strip -s ds || die "strip"
cp ds plain
objcopy --add-section .gnu_debugdata=mini.xz ds || die "add section"
s='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack(3)] = count(); }'
"$SONDE" -q -c "./plain 2" -e "$s" > out 2> err || die "plain: $(cat err)"
grep -q '^    d0+' out && die "names without MiniDebugInfo: $(cat out)"
"$SONDE" -q -c "./ds 2" -e "$s" > out 2> err || die "mini: $(cat err)"
[[ $(sed -nE 's/^    ([a-z0-9_]+)\+[0-9]+$/\1/p' out | tr '\n' ' ') == "leaf d0 d1 " ]] ||
	die "MiniDebugInfo: $(cat out)"
echo ok
