#!/bin/bash
# usermode is 1 in a uprobe (the task was running its own code);
# probetype names the probe's type, "special" for BEGIN and END, as a
# string as long as the block's longest type name.
set -u
PROGS=${SONDE_PROGS:-$SONDE_ROOT/build/progs}
prog=$PROGS/structs
[[ -x $prog ]] || { echo "$prog not built (make progs)"; exit 1; }
out=$("$SONDE" -c "$prog" -e 'BEGIN { printf("%s %d\n", probetype, sizeof(probetype)); }
uprobe:'"$prog"':take { printf("%d %d %s %s\n", usermode, usermode(), probetype, probetype()); exit(); }
END { printf("%s\n", probetype()); }' 2>&1)
want='Attaching 3 probes...
special 8
1 1 uprobe uprobe
special'
[[ $out == "$want" ]] || { printf 'got:\n%s\nwant:\n%s\n' "$out" "$want"; exit 1; }
