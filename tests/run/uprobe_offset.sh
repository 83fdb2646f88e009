#!/bin/bash
# uprobe:FILE:FUNC+OFFSET attaches where an instruction of FUNC starts
# (the offsets objdump shows) and fires there; an offset inside an
# instruction is refused unless --unsafe, as is one past the end; an
# address in no function cannot be resolved.
. "$SONDE_ROOT/tests/lib/trace.sh"
command -v objdump > /dev/null || { echo "objdump is not installed"; exit 77; }
prog=$PROGS/stacks
# outer's instructions: the offsets of the second and third
mapfile -t offs < <(objdump -d --no-show-raw-insn "$prog" |
	awk '/<outer>:$/ { on = 1; next } on && /^$/ { exit }
	     on { sub(":", "", $1); print $1 }' | head -3)
(( ${#offs[@]} == 3 )) || die "no instructions of outer in $prog"
second=$(( 0x${offs[1]} - 0x${offs[0]} ))
third=$(( 0x${offs[2]} - 0x${offs[0]} ))
trace stacks 2 3 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
uprobe:'"$prog"':outer+'$second' /pid == $1/ { @a = count(); }
uprobe:'"$prog"':outer+'$third' /pid == $1/ { @b = count(); }
uprobe:'"$prog"':outer /pid == $1/ { @c = count(); }' @TRIG@
grep -q '^@a: [1-9]' "$work/out" || die "outer+$second did not fire: $(cat "$work/out")"
a=$(sed -n 's/^@a: //p' "$work/out")
b=$(sed -n 's/^@b: //p' "$work/out")
c=$(sed -n 's/^@c: //p' "$work/out")
[[ $a == "$c" && $b == "$c" ]] || die "outer+$second: $a, outer+$third: $b, outer: $c"
stderr_clean
# one byte into the second instruction (at least 2 bytes long, or the
# third starts there)
inside=$(( second + 1 ))
if (( inside == third )); then
	inside=1
	(( second > 1 )) || die "outer's first two instructions are 1 byte"
fi
if "$SONDE" -e "uprobe:$prog:outer+$inside { }" > "$work/out" 2> "$work/err"; then
	die "outer+$inside attached"
fi
grep -q "error\[E_PROBE\]: uprobe: Could not add uprobe into middle of instruction: $prog:outer+$inside: it is inside an instruction; --unsafe attaches there anyway" "$work/err" ||
	die "outer+$inside: $(cat "$work/err")"
"$SONDE" --unsafe --dump=bpf -e "uprobe:$prog:outer+$inside { }" > /dev/null 2> "$work/err" ||
	die "--unsafe outer+$inside: $(cat "$work/err")"
if "$SONDE" -e "uprobe:$prog:outer+100000 { }" > "$work/out" 2> "$work/err"; then
	die "outer+100000 attached"
fi
grep -q "uprobe: Offset outside the function bounds ('outer' size is [0-9]*)" "$work/err" || die "past the end: $(cat "$work/err")"
if "$SONDE" -e "uprobe:$prog:10 { }" > "$work/out" 2> "$work/err"; then
	die "address 10 attached"
fi
grep -q "uprobe: Could not resolve address: $prog:0xa" "$work/err" || die "address 10: $(cat "$work/err")"
exit 0
