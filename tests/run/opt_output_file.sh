#!/bin/bash
# -o FILE: everything that would go to stdout (Attaching line, printf,
# the maps at exit) goes to FILE; stdout stays empty.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo stale > "$dir/out.txt"
stdout=$("$SONDE" -o "$dir/out.txt" -e 'BEGIN { printf("x %d\n", 7); @a = 1; exit(); }' 2> "$dir/err") ||
	{ echo "sonde failed"; cat "$dir/err"; exit 1; }
[[ -z $stdout ]] || { echo "stdout not empty: $stdout"; exit 1; }
want=$'Attaching 1 probe...\nx 7\n\n\n@a: 1\n'
got=$(cat "$dir/out.txt"; echo .)
got=${got%.}
[[ $got == "$want" ]] || { echo "file differs:"; diff <(printf %s "$want") "$dir/out.txt"; exit 1; }
exit 0
