#!/bin/bash
# tseries() (bpftrace 0.26): the value of each interval merged as its
# mode says (last, sum, avg, min, max), keyed and not, drawn on the
# scale of the values shown (one value v: v-1 to v+1; a '.' at zero
# when the scale spans it), with the interval's wall-clock start; and
# in JSON.  Updates in one BEGIN share an interval (10 s); a run of
# 100 ms intervals fills rows 100 ms apart.
set -u
fail() { echo "$*"; exit 1; }
ts='[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}'
cfg='config = { unstable_tseries = enable }'
out=$("$SONDE" --dialect=0.26 -e "$cfg"'
BEGIN {
	@last = tseries(5, 10s, 3); @last = tseries(9, 10s, 3);
	@sum = tseries(5, 10s, 3, "sum"); @sum = tseries(9, 10s, 3, "sum");
	@avg = tseries(5, 10s, 3, "avg"); @avg = tseries(10, 10s, 3, "avg");
	@min["a"] = tseries(5, 10s, 3, "min"); @min["a"] = tseries(-3, 10s, 3, "min");
	@max[1, 2] = tseries(5, 10s, 3, "max"); @max[1, 2] = tseries(-3, 10s, 3, "max");
	exit();
}' 2>&1) || fail "sonde failed: $out"
out=$(sed -E "s/^$ts /TS /" <<< "$out")
bar='|___________________________________________________|'
mid='|                         *                         |'
want="Attached 1 probe


@avg:
             6                                                   8
hh:mm:ss.ms  $bar
TS $mid 7
             v___________________________________________________v
             6                                                   8

@last:
             8                                                  10
hh:mm:ss.ms  $bar
TS $mid 9
             v___________________________________________________v
             8                                                  10

@max[1, 2]:
             4                                                   6
hh:mm:ss.ms  $bar
TS $mid 5
             v___________________________________________________v
             4                                                   6

@min[a]:
             -4                                                 -2
hh:mm:ss.ms  $bar
TS $mid -3
             v___________________________________________________v
             -4                                                 -2

@sum:
             13                                                 15
hh:mm:ss.ms  $bar
TS $mid 14
             v___________________________________________________v
             13                                                 15"
[[ $out == "$want" ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }

# JSON: an array of intervals per key
out=$("$SONDE" --dialect=0.26 -f json -e "$cfg"' BEGIN { @a["k"] = tseries(3, 10s, 2); @b = tseries(-1, 10s, 2); exit(); }' 2>&1) ||
	fail "sonde failed: $out"
out=$(sed -E "s/\"$ts\"/\"TS\"/g" <<< "$out")
want='{"type": "attached_probes", "count": 1, "data": {"probes": 1}}
{"type": "tseries", "data": {"@a": {"k": [{"interval_start": "TS", "value": 3}]}}}
{"type": "tseries", "data": {"@b": [{"interval_start": "TS", "value": -1}]}}'
[[ $out == "$want" ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }

# a zigzag over 100 ms intervals: rows 100 ms apart, a '.' at zero
out=$("$SONDE" --dialect=0.26 -q -e "$cfg"' BEGIN { @c = -2; }
interval:ms:100 { @ = tseries(@c, 100ms, 4); @c = @c < 2 ? @c + 1 : -2; }
interval:ms:750 { clear(@c); exit(); }' 2>&1) || fail "sonde failed: $out"
rows=$(grep -cE "^$ts [|*][ .*]{51}[|*] -?[0-9]+$" <<< "$out")
(( rows >= 2 && rows <= 4 )) || fail "want 2 to 4 rows: $out"
grep -qE "^$ts [|*][ *]*\.[ *]*[|*]" <<< "$out" || fail "no zero line: $out"
ms=$(grep -oE "^$ts" <<< "$out" | sed -E 's/.*\.([0-9]{3})$/\1/' | sed 's/^0*//; s/^$/0/')
for m in $ms; do (( m % 100 == 0 )) || fail "interval start not on 100 ms: $out"; done

# unstable: a warning by default, once; config unstable_tseries = enable
# silences it
err=$("$SONDE" --dialect=0.26 --dump=bpf -e 'BEGIN { @a = tseries(1, 1s, 2); @b = tseries(1, 1s, 2); }' 2>&1 >/dev/null)
[[ $(grep -c "warning: tseries() is an unstable feature" <<< "$err") == 1 ]] || fail "warning: $err"
exit 0
