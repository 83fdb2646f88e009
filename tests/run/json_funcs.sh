#!/bin/bash
# -f json of the values of pton(), tuples of narrow integers, a cleared
# count() and printf of strcontains(): as bpftrace 0.17 writes them;
# strerror(), strftime() and cgroup_path() texts as JSON strings (where
# bpftrace writes them bare, which is not JSON).
. "$SONDE_ROOT/tests/lib/trace.sh"
prog='BEGIN { print(pton("127.0.0.1")); print(((int8)-1, "ab", (int16)2)); @c = count(); clear(@c);
  @p[pton("::1")] = 1; @t = ((int8)1, pton("1.2.3.4")); printf("%d\n", strcontains("abc", "b")); exit(); }'
want='{"type": "attached_probes", "data": {"probes": 1}}
{"type": "value", "data": [127,0,0,1]}
{"type": "value", "data": [-1,"ab",2]}
{"type": "printf", "data": "1\n"}
{"type": "map", "data": {"@c": 0}}
{"type": "map", "data": {"@p": {"[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]": 1}}}
{"type": "map", "data": {"@t": [1,[1,2,3,4]]}}'
"$SONDE" -f json -e "$prog" > "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
expect "$want"
stderr_clean
if have_bpftrace; then
	bpftrace -f json -e "$prog" 2> /dev/null | sed '/^$/d' > "$work/bt"
	expect "$want" "$work/bt"
fi
"$SONDE" -f json -e 'BEGIN { print(strerror(2)); @e[strerror(1)] = 1;
  print(strftime("x%%y", 0)); print((cgroup_path(1, "nomatch"), 1)); exit(); }' \
	> "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
expect '{"type": "attached_probes", "data": {"probes": 1}}
{"type": "value", "data": "No such file or directory"}
{"type": "value", "data": "x%y"}
{"type": "value", "data": ["",1]}
{"type": "map", "data": {"@e": {"Operation not permitted": 1}}}'
python3 -m json.tool --json-lines "$work/out" > /dev/null || die "not JSON: $(cat "$work/out")"
stderr_clean
