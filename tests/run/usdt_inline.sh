#!/bin/bash
# A probe with several locations (an inline function used three times):
# one probe for -l, three attachments, each reading its own operands.
. "$SONDE_ROOT/tests/usdt/lib.sh"
build inline -O2 "$USDT/inline.c"
locs=$(readelf -n inline | grep -c 'Name: step')
(( locs == 3 )) || { echo "FAIL: $locs notes for step, not 3"; exit 1; }
same "-lv" "usdt:./inline:inl:step
    2 arguments, 3 locations" "$("$SONDE" -lv "usdt:./inline:*" | head -2)"
same "-l of a script (U: is usdt:)" "usdt:./inline:inl:step" "$("$SONDE" -l -e 'U:./inline:inl:step { }')"
out=$("$SONDE" -c ./inline -e 'usdt:./inline:inl:step { printf("%d %d\n", arg0, arg1); }' 2>&1) ||
	{ echo "FAIL: sonde: $out"; exit 1; }
same "three locations" "Attaching 3 probes...
1 5
2 15
3 -5" "$(sed '/^$/d' <<< "$out")"
exit 0
