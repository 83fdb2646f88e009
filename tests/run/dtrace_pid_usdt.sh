#!/bin/bash
# sonde dtrace's pid and USDT providers on a -c target: pid$target
# entry and return (arg1 the return value), PROV$target probes in
# DTrace's spelling ("-" for the note's "__"), the D names of each
# (provider with the process's id, as dtrace names it, module the
# file's name, function the one holding the probe), -l.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cp "$USDT/dt_provider.d" "$USDT/dt_prog.c" .
"$SONDE" dtrace -C -h -s dt_provider.d -o dt_provider.h || { echo "FAIL dtrace -h"; exit 1; }
cc -O2 -c dt_prog.c || { echo "FAIL cc"; exit 1; }
"$SONDE" dtrace -C -G -s dt_provider.d -o dt_provider.o dt_prog.o || { echo "FAIL dtrace -G"; exit 1; }
cc -o prog dt_prog.o dt_provider.o || { echo "FAIL link"; exit 1; }

out=$("$SONDE" dtrace -q -c './prog prog.out' -n 'shop$target:::order-placed { printf("%s:%s:%s:%s placed %d %s\n", probeprov, probemod, probefunc, probename, arg0, copyinstr(arg1)); }' -n 'pid$target::main:entry { printf("main\n"); }' -n 'pid$target:a.out:main:return { printf("%s:%s:%s:%s returns %d\n", probeprov, probemod, probefunc, probename, arg1); }' |
	sed -E 's/^(shop|pid)[0-9]+:/\1PID:/')
same "pid and usdt" "main
shopPID:prog:main:order-placed placed 1 widget
shopPID:prog:main:order-placed placed 2 widget
pidPID:prog:main:return returns 0" "$out"

# -l starts the command stopped at its exec, as dtrace does, for its
# pid in the provider's name
out=$("$SONDE" dtrace -l -c ./prog -n 'shop$target:::order-*' | awk '{ print $2, $3, $4, $5 }' |
	sed -E 's/^shop[0-9]+ /shopPID /')
same "-l" "PROVIDER MODULE FUNCTION NAME
shopPID prog main order-placed
shopPID prog main order-shipped" "$out"
pgrep -f '^./prog$' > /dev/null && { echo "FAIL -l left the command running"; exit 1; }
exit 0
