#!/bin/bash
# -q drops the "Attaching N probes..." line and nothing else.
set -u
prog='BEGIN { printf("x\n"); @a = 1; exit(); }'
out=$("$SONDE" -q -e "$prog") || { echo "sonde -q failed"; exit 1; }
want=$'x\n\n\n@a: 1'
[[ $out == "$want" ]] || { echo "with -q:"; diff <(echo "$want") <(echo "$out"); exit 1; }
out=$("$SONDE" -e "$prog") || { echo "sonde failed"; exit 1; }
want=$'Attaching 1 probe...\nx\n\n\n@a: 1'
[[ $out == "$want" ]] || { echo "without -q:"; diff <(echo "$want") <(echo "$out"); exit 1; }
exit 0
