#!/bin/bash
# A struct the script defines takes the place of the program's DWARF
# one of the same name, as in bpftrace 0.17, whose scripts had to define
# the program's structs to follow a parameter's pointer: the same
# values through args->nd (struct node *) with the script's layout,
# members, a nested struct, a char array as a map key, and the pointer
# to the next node, side by side with bpftrace 0.17.  The script's
# struct node stops after p: its later members (bitfields, a union) are
# not there to read.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat dwarfargs -- '
struct point { int x; int y; }
struct node { long val; struct node *next; char name[8]; struct point p; }
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/dwarfargs:values /pid == $1/ {
	printf("%d %s %d %d %d %s\n", args->nd->val, args->nd->name,
	       args->nd->p.x, args->nd->p.y, args->nd->next->val,
	       args->nd->next->name);
	@n[args->nd->name, args->nd->next->p.y] = count();
	@p = args->nd->next->p.x;
}' @TRIG@
expect "Attaching 2 probes...
ready
1 one 5 6 2 two


@n[one, 4]: 1
@p: 3" "$work/sonde"

# the members the script left out are not there
out=$("$SONDE" -d -e 'struct node { long val; }
uprobe:'"$PROGS"'/dwarfargs:values { print(args->nd->level); }' 2>&1 >/dev/null)
want="error[E_TYPE]: struct node has no member 'level'"
[[ ${out%%$'\n'*} == "-e:2:"*": $want" ]] || { echo "got: $out"; echo "want: $want"; exit 1; }
exit 0
