#!/bin/bash
# User stacks print as function+offset after their process has exited,
# where bpftrace 0.17 prints hex: the stacks of -c's command (PIE and
# non-PIE) print at sonde's exit, after the command's; a process started
# while sonde runs, and one started before it (not -p), each exiting
# right after its last stack, print with names too.  The program:
# main -> call_fn -> first_fn -> second_fn -> third_fn, probed at
# third_fn+4 (its frame set up).  Also the modes and a depth:
#   @[ustack]          "    func+off" per frame (map key: 4 spaces)
#   ustack(3)          the 3 innermost frames
#   ustack(perf, 2)    "\t<hex> func+off (path)"
#   ustack(raw, 2)     "<hex>", the addresses perf mode shows
set -u
. "$SONDE_ROOT/tests/lib/ustack.sh"
dir=$(mktemp -d)
trap 'kill $pid $spid 2>/dev/null; rm -rf "$dir"' EXIT
pid= spid=
fail=0
bad() { echo "$*"; fail=1; }
off='\+[0-9]+$'

# the four frames of our program under third_fn+4, in map-key layout
check_ours() {	# TEXT WHAT
	local f
	f=$(frames "$1" @)
	grep -qE "^    third_fn\+4$" <<< "$(sed -n 1p <<< "$f")" &&
	grep -qE "^    second_fn$off" <<< "$(sed -n 2p <<< "$f")" &&
	grep -qE "^    first_fn$off" <<< "$(sed -n 3p <<< "$f")" &&
	grep -qE "^    call_fn$off" <<< "$(sed -n 4p <<< "$f")" &&
	grep -qE "^    main$off" <<< "$(sed -n 5p <<< "$f")" ||
		bad "$2: frames: $f"
}

for pie in -pie -no-pie; do
	ustack_prog "$dir/p" -fPIE $pie || exit 1
	out=$("$SONDE" -q -c "$dir/p 3" -e "uprobe:$dir/p:third_fn+4 {
		@[ustack] = count(); @d[ustack(3)] = count();
		@p[ustack(perf, 2)] = count(); @r[ustack(raw, 2)] = count(); }" 2>&1)
	check_ours "$out" "-c $pie"
	grep -qE '^\]: 3$' <<< "$out" || bad "-c $pie: count"
	d=$(frames "$out" @d)
	[[ $(wc -l <<< "$d") == 3 && $d == "$(frames "$out" @ | head -n 3)" ]] ||
		bad "-c $pie: ustack(3): $d"
	p=$(frames "$out" @p)
	grep -qP "^\t[0-9a-f]+ third_fn\+4 \(\Q$dir/p\E\)$" <<< "$(sed -n 1p <<< "$p")" &&
	grep -qP "^\t[0-9a-f]+ second_fn\+[0-9]+ \(\Q$dir/p\E\)$" <<< "$(sed -n 2p <<< "$p")" &&
	[[ $(wc -l <<< "$p") == 2 ]] || bad "-c $pie: perf mode: $p"
	[[ $(frames "$out" @r) == "$(awk '{ print $1 }' <<< "$p")" ]] ||
		bad "-c $pie: raw mode: $(frames "$out" @r)"
	(( fail )) && { printf '%s\n' "$out"; exit 1; }
done

# Started while sonde runs (not by sonde): known from its fork and exec.
# It has exited when the next 300 ms tick ends the script.
"$SONDE" -q -e "BEGIN { printf(\"ready\\n\"); }
	uprobe:$dir/p:third_fn+4 { @[ustack] = count(); @seen = 1; }
	interval:ms:300 /@seen/ { exit(); }" > "$dir/out1" 2>&1 & spid=$!
wait_line "$dir/out1" '^ready$' || { bad "sonde did not start: $(cat "$dir/out1")"; exit 1; }
"$dir/p" 2
wait $spid
check_ours "$(cat "$dir/out1")" "started later"

# Started before sonde, exits right after its stack: read at start.
"$dir/p" 1 wait > "$dir/pout" & pid=$!
wait_line "$dir/pout" '^waiting$' || { bad "program did not start"; exit 1; }
"$SONDE" -q -e "BEGIN { printf(\"ready\\n\"); }
	uprobe:$dir/p:third_fn+4 { @[ustack] = count(); @seen = 1; }
	interval:ms:300 /@seen/ { exit(); }" > "$dir/out2" 2>&1 & spid=$!
wait_line "$dir/out2" '^ready$' || { bad "sonde did not start: $(cat "$dir/out2")"; exit 1; }
kill -USR1 $pid
wait $pid $spid
check_ours "$(cat "$dir/out2")" "started before"
(( fail )) && { cat "$dir/out1" "$dir/out2"; }
exit $fail
