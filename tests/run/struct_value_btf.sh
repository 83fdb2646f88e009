#!/bin/bash
# A kernel struct (BTF) as a value: a member of struct type printed
# whole, copied into a map and read back member by member.
set -u
out=$("$SONDE" -e 'BEGIN { $t = (struct task_struct *)curtask;
	print($t->se.load); @l = $t->se.load;
	printf("%d\n", @l.weight == $t->se.load.weight); exit(); }' 2>&1)
re='^Attaching 1 probe...
\{ \.weight = [0-9]+, \.inv_weight = [0-9]+ \}
1


@l: \{ \.weight = [0-9]+, \.inv_weight = [0-9]+ \}$'
[[ $out =~ $re ]] || { echo "got:"; echo "$out"; exit 1; }
