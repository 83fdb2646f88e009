#!/bin/bash
# a[i] with a variable i: on an array member reached through a pointer,
# on an array value in a variable, on arrays of structs and of arrays;
# an index outside an array value reads zeros.  (bpftrace 0.17 takes
# only constant indices.)
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
	$a = $r->pts;
	$m = $r->mat;
	$v = $r->arr;
	$i = 1;
	print($a[$i]); print($r->pts[$i]); print($m[$i]); print($r->mat[$i]);
	printf("%d %d %d %d\n", $v[$i], $r->arr[$i + 2], $m[$i][$i + 1],
	       $r->u16s[$i * 2]);
	$i = 7;
	print($a[$i]); printf("%d\n", $v[$i]);
	exit();
}'
want='Attaching 1 probe...
{ .x = 3, .y = 4 }
{ .x = 3, .y = 4 }
[14,15,16]
[14,15,16]
2 4 16 65535
{ .x = 0, .y = 0 }
0'
got=$("$SONDE" -e "$script" -c "$prog" 2>&1)
got=${got%$'\n\n'}
[[ $got == "$want" ]] || { echo "got:"; echo "$got"; echo "want:"; echo "$want"; exit 1; }
