#!/bin/bash
# Struct values and pointers, in text and JSON, as bpftrace 0.17 prints
# them: *p copied into a variable, a map value and a map key; an element
# of an array of structs; pointer arithmetic scaled by what the pointer
# points to (p + 2, p[4], @p++ and @p += 2 on a map value); an array and
# a struct in a tuple.
set -u
PROGS=${SONDE_PROGS:-$SONDE_ROOT/build/progs}
prog=$PROGS/structs
[[ -x $prog ]] || { echo "$prog not built (make progs)"; exit 1; }
script='struct tpoint { int x; short y; };
struct trec { int id; char name[8]; int arr[4]; int mat[2][3];
	uint16_t u16s[3]; struct tpoint at; struct tpoint *where; int word;
	int lo; int hi; const char *label; unsigned long big; long long neg;
	short f1 : 4, f2 : 8, f3 : 3; int color; char tag[4]; void *fn;
	int *ints; struct tpoint pts[2]; };
uprobe:'"$prog"':take {
	$r = (struct trec *)arg0;
	$v = *$r->where;
	print($v);
	@w = *$r->where;
	@p[$v] = count();
	$a = $r->pts;
	print($a[1]);
	$i = $r->ints;
	printf("%d %d %d\n", *($i + 2), $i[4], *$r->ints);
	@x = $r->ints;
	@x++;
	@x += 2;
	printf("%d %d\n", *@x, *(@x - 1));
	print(($r->arr, $r->at));
	delete(@x);
	exit();
}'
fail=0
check() {
	local want=$1 got
	shift
	got=$("$SONDE" "$@" -e "$script" -c "$prog" 2>&1)
	if [[ $got != "$want" ]]; then
		echo "sonde $*: got"; echo "$got"; echo "want"; echo "$want"
		fail=1
	fi
}
check 'Attaching 1 probe...
{ .x = 42, .y = 7 }
{ .x = 3, .y = 4 }
30 50 10
40 30
([1,2,3,4], { .x = 9, .y = -3 })


@p[{.x=42,.y=7}]: 1
@w: { .x = 42, .y = 7 }'
check '{"type": "attached_probes", "data": {"probes": 1}}
{"type": "value", "data": { "x": 42, "y": 7 }}
{"type": "value", "data": { "x": 3, "y": 4 }}
{"type": "printf", "data": "30 50 10\n"}
{"type": "printf", "data": "40 30\n"}
{"type": "value", "data": [[1,2,3,4],{ "x": 9, "y": -3 }]}
{"type": "map", "data": {"@p": {"{.x=42,.y=7}": 1}}}
{"type": "map", "data": {"@w": { "x": 42, "y": 7 }}}' -f json
exit $fail
