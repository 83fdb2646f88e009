#!/bin/bash
# The year printed four ways must be this year.
y=$(date +%Y)
out=$("$SONDE" -q -e 'BEGIN { $t = strftime("%Y", nsecs); print($t); print((1, $t)); @y = $t; printf("%s\n", $t); exit(); }')
want=$(printf '%s\n(1, %s)\n%s\n\n\n@y: %s' "$y" "$y" "$y" "$y")
[[ "$out" == "$want" ]] || { echo "got: $out"; echo "want: $want"; exit 1; }
