#!/bin/bash
# A uprobe's DWARF-typed enum and _Bool parameters print as bpftrace
# 0.26 prints them: the enumerator's name and true or false (numbers
# with %d and under --dialect=0.17), in values, map keys and printed
# structs (args), whose pointers print in hex.
. "$SONDE_ROOT/tests/lib/trace.sh"
script='
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/dwarfargs:longs /pid == $1/ {
	print((args.col, args.ok));
	printf("%s %s ", args.col, args.ok); printf("%d %d\n", args.col, args.ok);
	@[args.col, args.ok] = args.col;
	print(args);
}'
trace dwarfargs -- "$SONDE" --dialect=0.26 -e "$script" @TRIG@
stderr_clean
sed -i 's/\.s = 0x[0-9a-f]*/.s = PTR/' "$work/out"
expect "ready
(GREEN, true)
GREEN true 5 1
{ .g = -5000000000, .h = 18000000000000000000, .s = PTR, .u = 123456789012, .col = GREEN, .ok = true }


@[GREEN, true]: GREEN"
# 0.17's printf has no %s of integers
p='printf("%s %s ", args.col, args.ok); '
trace dwarfargs -- "$SONDE" --dialect=0.17 -e "${script/"$p"/}" @TRIG@
stderr_clean
sed -i 's/\.s = [0-9]*/.s = PTR/' "$work/out"
expect "Attaching 2 probes...
ready
(5, 1)
5 1
{ .g = -5000000000, .h = 18000000000000000000, .s = PTR, .u = 123456789012, .col = 5, .ok = 1 }


@[5, 1]: 5"
