#!/bin/bash
# The three stack modes and a depth limit, byte for byte as bpftrace
# 0.17 prints them (raw as later bpftrace does), checked on the stack of
# getppid():
#   bpftrace  "        func+off" (8 spaces outside map keys)
#   perf      "\t<hex address> func+off"
#   raw       "<hex address>"
# each stack preceded by a newline.  The three modes of one probe hit
# show the same frames; kstack(3) shows 3 (the stack is deeper).
set -u
trigger() { while :; do bash -c true; sleep 0.05; done; }
trigger & tpid=$!
trap 'kill $tpid 2>/dev/null' EXIT
out=$("$SONDE" -q kstack_modes.bt 2>&1) || { echo "sonde failed: $out"; exit 1; }
fail=0
bad() { echo "$1"; fail=1; }
# the lines between "X" and "E" of the first printf
block() { awk -v x="$1" '$0 == x { on = 1; next } on && $0 == "E" { exit } on' <<< "$out"; }
b=$(block B) p=$(block P) r=$(block R)
[[ $(wc -l <<< "$b") == 3 ]] || bad "kstack(3): not 3 frames: $b"
[[ $(wc -l <<< "$p") == 3 ]] || bad "kstack(perf, 3): not 3 frames: $p"
[[ $(wc -l <<< "$r") == 3 ]] || bad "kstack(raw, 3): not 3 frames: $r"
grep -qvE '^        [A-Za-z0-9_.]+\+[0-9]+$' <<< "$b" && bad "bpftrace mode: $b"
grep -qvP '^\t[0-9a-f]+ [A-Za-z0-9_.]+\+[0-9]+$' <<< "$p" && bad "perf mode: $p"
grep -qvE '^[0-9a-f]{8,16}$' <<< "$r" && bad "raw mode: $r"
[[ $(awk '{ print $2 }' <<< "$p") == $(awk '{ print $1 }' <<< "$b") ]] ||
	bad "perf and bpftrace modes name different frames"
[[ $(awk '{ print $1 }' <<< "$p") == "$r" ]] ||
	bad "perf and raw modes show different addresses"
# print($s): a blank line, 2 frames, the blank line print() ends with
want=$(printf '\n%s\n' "$(head -n 2 <<< "$b")")
got=$(awk '/^R/ { r = 1 } r && /^E$/ { s = 1; next } s && n < 4 { print; n++ }' <<< "$out")
[[ $got == "$want"$'\n' || $got == "$want" ]] || bad "print(kstack(2)): got [$got]"
# a map value: "@v: " then the stack; a tuple: "(" stack ", 7)"
want="@v: "$'\n'$(head -n 2 <<< "$b")
# the last map: the blank line after it is cut by $(...)
[[ $out == *"$want" ]] || bad "@v"
[[ $(grep -A2 '^@t: ($' <<< "$out") == "@t: ("$'\n'"$(head -n 1 <<< "$p")"$'\n'", 7)" ]] ||
	bad "@t: $(grep -A2 '^@t' <<< "$out")"
(( fail )) && printf '%s\n' "$out"

# BPFTRACE_STACK_MODE: the mode of a kstack without one (both kstack
# and kstack(3) below print raw, then perf); an explicit mode wins
s='tracepoint:sched:sched_process_exec { printf("A%s\nB%s\nC%s\nE\n", kstack, kstack(3), kstack(bpftrace, 3)); exit(); }'
for m in raw perf; do
	out=$(BPFTRACE_STACK_MODE=$m "$SONDE" -q -e "$s" 2>&1) || bad "BPFTRACE_STACK_MODE=$m: $out"
	a=$(awk '/^A/ { on = 1; next } /^B/ { exit } on && NF' <<< "$out")
	b=$(awk '/^B/ { on = 1; next } /^C/ { exit } on && NF' <<< "$out")
	c=$(awk '/^C/ { on = 1; next } /^E$/ { exit } on && NF' <<< "$out")
	if [[ $m == raw ]]; then re='^[0-9a-f]{8,16}$'; else re=$'^\t[0-9a-f]+ [A-Za-z0-9_.]+\\+[0-9]+$'; fi
	[[ -n $a ]] && ! grep -qvE "$re" <<< "$a" || bad "$m: kstack: [$a]"
	[[ $(wc -l <<< "$b") == 3 ]] && ! grep -qvE "$re" <<< "$b" || bad "$m: kstack(3): [$b]"
	grep -qvE '^        [A-Za-z0-9_.]+\+[0-9]+$' <<< "$c" && bad "$m: kstack(bpftrace, 3): [$c]"
done
out=$(BPFTRACE_STACK_MODE=fancy "$SONDE" -e 'BEGIN { exit(); }' 2>&1)
[[ $out == 'sonde: BPFTRACE_STACK_MODE=fancy is not one of bpftrace, perf, raw, build_id' ]] || bad "fancy: $out"
exit $fail
