#!/bin/bash
# SIGUSR1 prints every map, as bpftrace 0.17 does, and the run goes
# on: in text (no blank lines before them, unlike the maps at exit)
# and JSON.  Each print comes out before SIGINT, holds the values BEGIN
# set, and a count that grows from one print to the next.
set -u
dir=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL $pid 2>/dev/null; rm -rf "$dir"' EXIT
die() { echo "$*"; cat "$dir/err"; exit 1; }

# lines N: wait (5 s at most) until the output has N lines
lines() {
	local i
	for (( i = 0; i < 100; i++ )); do
		(( $(wc -l < "$dir/out") >= $1 )) && return 0
		sleep 0.05
	done
	die "want $1 lines, got: $(cat "$dir/out")"
}

prog='BEGIN { @s["x", 2] = 7; @h = hist(5); printf("ready\n"); }
interval:ms:20 { @n = count(); }'
"$SONDE" -e "$prog" > "$dir/out" 2> "$dir/err" &
pid=$!
lines 2
sleep 0.2
kill -USR1 $pid
lines 7
sleep 0.2
kill -USR1 $pid
lines 12
kill -0 $pid 2>/dev/null || die "sonde stopped on SIGUSR1"
kill -INT $pid
wait $pid || die "exit status $?"
pid=
# the two prints, then the exit's
sed -n '3,12p' "$dir/out" | sed 's/^@n: [0-9]*$/@n: N/' > "$dir/got"
cat > "$dir/want" <<'W'
@h: 
[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@n: N
@s[x, 2]: 7
@h: 
[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@n: N
@s[x, 2]: 7
W
diff "$dir/want" "$dir/got" || die "prints differ"
[[ $(sed -n 1,2p "$dir/out") == $'Attaching 2 probes...\nready' ]] || die "head: $(head -2 "$dir/out")"
n1=$(sed -n 6p "$dir/out" | cut -d' ' -f2)
n2=$(sed -n 11p "$dir/out" | cut -d' ' -f2)
(( n1 > 0 && n2 > n1 )) || die "@n not growing: $n1 then $n2"
[[ $(sed -n '13,14p' "$dir/out" | tr -d '\n') == "" && $(wc -l < "$dir/out") == 19 ]] || die "no blank lines at exit: $(cat "$dir/out")"
[[ $(tail -1 "$dir/out") == '@s[x, 2]: 7' ]] || die "exit maps: $(cat "$dir/out")"
[[ -s $dir/err ]] && die "stderr"

# JSON: one message per map, no blank lines.  The file is emptied here:
# the shell truncates it only in the child it forks, and the text run's
# lines left in it would let "lines 1" signal too soon
: > "$dir/out"
"$SONDE" -f json -q -e 'BEGIN { @s["x", 2] = 7; @c = count(); printf("ready\n"); }' > "$dir/out" 2> "$dir/err" &
pid=$!
lines 1
kill -USR1 $pid
lines 3
kill -INT $pid
wait $pid || die "exit status $?"
pid=
want='{"type": "printf", "data": "ready\n"}
{"type": "map", "data": {"@c": 1}}
{"type": "map", "data": {"@s": {"x,2": 7}}}
{"type": "map", "data": {"@c": 1}}
{"type": "map", "data": {"@s": {"x,2": 7}}}'
[[ $(cat "$dir/out") == "$want" ]] || die "json: $(cat "$dir/out")"
exit 0
