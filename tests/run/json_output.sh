#!/bin/bash
# -f json: every message type bpftrace 0.17 writes (attached_probes,
# printf, time, join, syscall, value, map, hist, stats, lost_events,
# helper_error) comes out as one valid JSON object per line, and for the
# messages both tools write the lines equal bpftrace's, blank lines
# aside (bpftrace prints two at exit, sonde none).
. "$SONDE_ROOT/tests/lib/trace.sh"
fail=0
valid() {	# FILE: each line one JSON object with a "type"; python3 says
	python3 - "$1" <<'PY' || return 1
import json, sys
types = set()
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    try:
        m = json.loads(line)
    except Exception as e:
        sys.exit(f"line {n} is not JSON ({e}): {line!r}")
    if not isinstance(m, dict) or "type" not in m:
        sys.exit(f"line {n} has no type: {line!r}")
    types.add(m["type"])
print(" ".join(sorted(types)))
PY
}
prog='BEGIN { printf("hi %d\n", 5); @c = count(); @m[1, "a"] = 3; @h = hist(5); @h = hist(100);
  @l = lhist(3, 0, 10, 2); @s = stats(4); @a = avg(7); @mn = min(3); @mx = max(4); @sm = sum(9);
  @k["x"] = count(); @str = "hello"; @kh["a"] = hist(5); @kh["b"] = hist(-1); @ks["x"] = stats(-4);
  @ka[1] = avg(7); @t[1, 2] = count(); print(@t, 1); print(@m); print(7); print("str");
  print((1, "a")); printf("quote\" back\\ tab\t ctl\x01 end\n"); exit(); }'
"$SONDE" -f json -e "$prog" > "$work/sonde.json" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
valid "$work/sonde.json" > "$work/types" || die "$(cat "$work/types")"
python3 -m json.tool --json-lines "$work/sonde.json" > /dev/null || die "json.tool rejects it"
if have_bpftrace; then
	bpftrace -f json -e "$prog" 2>/dev/null | sed '/^$/d' > "$work/bpftrace.json"
	diff -u "$work/bpftrace.json" "$work/sonde.json" > "$work/diff" ||
		{ echo "differs from bpftrace:"; cat "$work/diff"; fail=1; }
fi

# The message types that need events: time, join (on -c's execve),
# syscall (system(), with --unsafe), helper_error (-kk), and the rest.
"$SONDE" -f json -kk --unsafe -c '/bin/echo one two' -e '
tracepoint:syscalls:sys_enter_execve /pid == cpid/ { join(args->argv); }
BEGIN { time("%Y\n"); system("echo from %s", "system"); @[str(8)] = count(); printf("\xff latin\n"); }' \
	> "$work/ev.json" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
grep -vx 'one two' "$work/ev.json" > "$work/ev2.json"	# echo's own output
valid "$work/ev2.json" > "$work/types2" || die "$(cat "$work/types2")"
for want in '{"type": "join", "data": "/bin/echo one two"}' \
	    '{"type": "syscall", "data": "from system\n"}' \
	    '{"type": "helper_error", "helper": "probe_read_str", "retcode": -14, "line": 3, "col": 59}' \
	    '{"type": "printf", "data": "\u00ff latin\n"}' \
	    '{"type": "map", "data": {"@": {"": 1}}}'; do
	grep -qxF "$want" "$work/ev2.json" || { echo "missing: $want"; cat "$work/ev2.json"; fail=1; }
done
grep -qE '^\{"type": "time", "data": "20[0-9][0-9]\\n"\}$' "$work/ev2.json" ||
	{ echo "no time message"; cat "$work/ev2.json"; fail=1; }

# lost_events: a stopped sonde, a full ring buffer (1 MiB: the default
# holds the 200000 events)
trigger_start syscalls getppid 200000
: > "$work/out"
"$SONDE" -f json --ringbuf-size 1M -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { printf("%s %s\n", comm, "0123456789012345678901234567890123456789"); }' "$TRIG" \
	> "$work/out" 2> "$work/err" &
TRACER=$!
wait_for "$work/out" '"data": "ready' || die "sonde -f json did not start: $(cat "$work/err")"
kill -STOP "$TRACER"
trigger_go
kill -CONT "$TRACER"
sleep 1
tracer_stop
valid "$work/out" > "$work/types3" || die "$(cat "$work/types3")"
grep -qE '^\{"type": "lost_events", "data": \{"events": [0-9]+\}\}$' "$work/out" ||
	{ echo "no lost_events: $(tail -3 "$work/out")"; fail=1; }
all=$(cat "$work/types" "$work/types2" "$work/types3" | tr ' ' '\n' | sort -u | tr '\n' ' ')
[[ $all == "attached_probes helper_error hist join lost_events map printf stats syscall time value " ]] ||
	{ echo "message types seen: $all"; fail=1; }
exit $fail
