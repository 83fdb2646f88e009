#!/bin/bash
# == and != of tuples (bpftrace 0.26): element by element, integers of
# other widths and strings of other sizes compared as the type both fit
# in; under --dialect=0.17 an error, as bpftrace 0.17 has no such
# comparison (tests/broken/tuple_compared.E_TYPE.bt).
set -u
script='BEGIN {
	$a = (1, "hello");
	$b = (1, "hello");
	$c = (2, "hello");
	$d = ((int8)1, "hel");
	printf("%d %d %d %d %d\n", $a == $b, $a == $c, $a != $c,
	       $a == (1, "hello"), $d == (1, "hel"));
	if ($a == $b) { printf("equal\n"); }
	if ($a != ($a.0, "hellO")) { printf("differ\n"); }
	printf("%d %d\n", ((1, "x"), 2) == ((1, "x"), 2), (comm, pid) == (comm, pid));
	exit();
}'
want='1 0 1 1 1
equal
differ
1 1'
got=$("$SONDE" --dialect=0.26 -q -e "$script" 2>&1)
got=${got%$'\n\n'}
[[ $got == "$want" ]] || { echo "got:"; echo "$got"; echo "want:"; echo "$want"; exit 1; }
# a pure addition: the 0.17 dialect compares them too
got=$("$SONDE" --dialect=0.17 -q -e "$script" 2>&1)
got=${got%$'\n\n'}
[[ $got == "$want" ]] || { echo "0.17 got:"; echo "$got"; exit 1; }
