#!/bin/bash
# sonde dtrace -G over objects built for DTrace (its <sys/sdt.h>: calls
# to __dtrace_PROV___NAME()): each call becomes a NOP (a tail call a
# return) with a .note.stapsdt note, so the program links and its probes
# fire with their arguments (the 7th and 8th from the stack) and the
# function holding them (a glob over providers, cal*:::, finds them
# too); is-enabled calls reach -G's function, true
# while the probe is traced; a second -G leaves the object alone; a
# probe the definition lacks, or a file that is no object, is an error.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cp "$USDT/dtrace_calls.c" "$USDT/dtrace_calls.d" .
cc -O2 -c dtrace_calls.c || { echo "FAIL cc"; exit 1; }
cp dtrace_calls.o pristine.o
"$SONDE" dtrace -G -s dtrace_calls.d -o provider.o dtrace_calls.o ||
	{ echo "FAIL dtrace -G"; exit 1; }
cc -o prog dtrace_calls.o provider.o || { echo "FAIL link"; exit 1; }
same "untraced" "enabled 0" "$(./prog)"

out=$(timeout 20 "$SONDE" dtrace -q -c ./prog -n '
calls$target:::go { printf("go %d %s %s\n", arg0, copyinstr(arg1), probefunc); }
cal*:::zero { printf("zero %s %s\n", probeprov, probefunc); }
calls$target:::many { printf("many %d %d %d %s\n", arg0, arg6, arg7, probefunc); }' 2>&1 | grep -v '^$' | sed -E 's/calls[0-9]+ /callsPID /' | sort)
same "probes" "enabled 3
go 0 hi main
go 1 hi main
go 100 tail tail
go 101 tail tail
go 102 tail tail
go 2 hi main
many 0 7 80 helper
many 1 7 81 helper
many 2 7 82 helper
zero callsPID main
zero callsPID main
zero callsPID main" "$out"

# run again over the rewritten object: nothing left to rewrite
"$SONDE" dtrace -G -s dtrace_calls.d -o provider.o dtrace_calls.o ||
	{ echo "FAIL a second dtrace -G"; exit 1; }
cc -o prog2 dtrace_calls.o provider.o || { echo "FAIL link again"; exit 1; }
same "rewritten twice" "2" "$(readelf -n prog2 | grep -c 'Name: go')"

grep -v zero dtrace_calls.d > lacking.d
err=$("$SONDE" dtrace -G -s lacking.d -o p.o pristine.o 2>&1)
same "an undeclared probe: status" 1 "$?"
same "an undeclared probe" "sonde dtrace: pristine.o: calls probe zero, which provider calls does not declare" "$err"
err=$("$SONDE" dtrace -G -s dtrace_calls.d -o p.o dtrace_calls.c 2>&1)
same "not an object: status" 1 "$?"
same "not an object" "sonde dtrace: dtrace_calls.c: not a 64-bit relocatable object" "$err"
exit 0
