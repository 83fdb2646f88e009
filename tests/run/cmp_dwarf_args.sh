#!/bin/bash
# uprobes' arguments by name from DWARF (args->NAME, bpftrace 0.17's
# spelling) print as bpftrace 0.17 prints them: integers of each width
# and sign, a string, a typedef, an enum and a _Bool, as printf
# arguments, map keys and values.  Only functions whose parameters all
# travel in the first six integer registers: bpftrace 0.17 takes the
# Nth parameter from the Nth register, and stops compiling at a
# function with more than six (tests/run/uprobe_dwarf_args.sh covers
# the rest, where sonde reads what bpftrace cannot).  Negative short
# and int parameters only as printf arguments: bpftrace 0.17 keeps
# them in a map as their unsigned 32-bit pattern (-300 as 4294966996),
# where sonde keeps -300.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat dwarfargs -- '
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/dwarfargs:ints /pid == $1/ {
	printf("%d %d %d %d %d %u\n", args->a, args->b, args->c, args->d,
	       args->e, args->f);
	@c[args->b, args->d] = count();
	@e = args->f;
}
uprobe:'"$PROGS"'/dwarfargs:longs /pid == $1/ {
	printf("%ld %lu %s %lu %d %d\n", args->g, args->h, str(args->s),
	       args->u, args->col, args->ok);
	@s[str(args->s)] = sum(args->col);
	@h = args->h;
	@ok[args->ok] = count();
}
uprobe:'"$PROGS"'/dwarfargs:strings /pid == $1/ { @n = args->n; }' @TRIG@
expect "Attaching 4 probes...
ready
-1 255 -300 60000 -70000 4000000000
-5000000000 18000000000000000000 hello 123456789012 5 1


@c[255, 60000]: 1
@e: 4000000000
@h: 18000000000000000000
@n: 2
@ok[1]: 1
@s[hello]: 5" "$work/sonde"
