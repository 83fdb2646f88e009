#!/bin/bash
# hist(x, k) with -f json: each bucket's least and greatest value, the
# negatives' bucket with a max only, the last one up to 2^64 - 1; a
# delete() of a k = 5 histogram (1921 buckets) empties it.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q -f json -e 'BEGIN { $i = 0; while ($i < 12) { @h[1] = hist($i, 1); $i++; } $b = 1 << 40; @t = hist($b, 3); $u = -1; @t = hist((uint64)$u, 3); @d = hist($i, 5); delete(@d); exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
grep '"@h"' out > h
expect '{"type": "hist", "data": {"@h": {"1": [{"min": 0, "max": 0, "count": 1}, {"min": 1, "max": 1, "count": 1}, {"min": 2, "max": 2, "count": 1}, {"min": 3, "max": 3, "count": 1}, {"min": 4, "max": 5, "count": 2}, {"min": 6, "max": 7, "count": 2}, {"min": 8, "max": 11, "count": 4}]}}}' h
grep -o '{"min": 1099511627776, "max": 1236950581247, "count": 1}' out > t1 || die "no [1024G, 1152G) bucket: $(cat out)"
grep -o '{"min": 17293822569102704640, "max": 18446744073709551615, "count": 1}]' out > t2 || die "no [15E, 16E) bucket"
! grep -q '"@d"' out || die "@d was not deleted"
$SONDE -q -f json -e 'BEGIN { $n = -3; @n = hist($n, 2); exit(); }' > out 2> err
expect '{"type": "hist", "data": {"@n": [{"max": -1, "count": 1}]}}'
