#!/bin/bash
# -p on a process started before sonde: its mappings are read when
# sonde starts, so its stacks print with names after it exited (sonde
# exits with it, then prints).  Also ustack in printf and print() while
# it runs, usym of the probed function's address (reg("ip")), and a
# stack kept in a variable and a map value.
set -u
. "$SONDE_ROOT/tests/lib/ustack.sh"
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
bad() { echo "$*"; fail=1; }
off='\+[0-9]+$'
ustack_prog "$dir/p" || exit 1
"$dir/p" 2 wait > "$dir/pout" & pid=$!
wait_line "$dir/pout" '^waiting$' || { echo "program did not start"; exit 1; }
"$SONDE" -q -p $pid -e "BEGIN { printf(\"ready\\n\"); }
	uprobe:$dir/p:third_fn+4 {
		@[ustack] = count();
		printf(\"[%s] %s|\\n\", usym(reg(\"ip\")), ustack(2));
		\$s = ustack(perf, 1); @v = \$s; print(ustack(1)); }" > "$dir/out" 2>&1 &
spid=$!
wait_line "$dir/out" '^ready$' || { echo "sonde did not start: $(cat "$dir/out")"; exit 1; }
kill -USR1 $pid
wait $spid
out=$(cat "$dir/out")
f=$(frames "$out" @)
grep -qE "^    third_fn\+4$" <<< "$(sed -n 1p <<< "$f")" &&
grep -qE "^    second_fn$off" <<< "$(sed -n 2p <<< "$f")" &&
grep -qE "^    first_fn$off" <<< "$(sed -n 3p <<< "$f")" &&
grep -qE "^    call_fn$off" <<< "$(sed -n 4p <<< "$f")" &&
grep -qE "^    main$off" <<< "$(sed -n 5p <<< "$f")" || bad "@: $f"
grep -qE '^\]: 2$' <<< "$out" || bad "count"
# printf: "[third_fn] " then the stack's text: a newline, 2 frames, each
# indented by 8 and ending in a newline; then print(): the same, 1 frame
want=$(printf '[third_fn] \n        third_fn+4\n        second_fn+9\n|\n\n        third_fn+4\n')
[[ $(sed -n 2,7p <<< "$out") == "$want" ]] || bad "printf and print: $(sed -n 2,7p <<< "$out")"
grep -qP "^\t[0-9a-f]+ third_fn\+4 \(\Q$dir/p\E\)$" <<< "$(grep -A1 '^@v: $' <<< "$out" | tail -n 1)" ||
	bad "@v: $(grep -A1 '^@v' <<< "$out")"
(( fail )) && printf '%s\n' "$out"
exit $fail
