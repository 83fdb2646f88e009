#!/bin/bash
# x / 0 and x % 0: today's bpftrace takes 1 and warns at run time with
# the place of the division; 0.17's dialect gives 0 and says nothing.
set -u
fail=0
bad() { echo "$1"; fail=1; }
prog='BEGIN { @z = 0; print((uint64)10 % (uint64)@z); print(10 / @z); print(-7 / 2); delete(@z); exit(); }'
out=$("$SONDE" -q --dialect=0.26 -e "$prog" 2> err)
[[ $out == $'1\n1\n-3' ]] || bad "0.26 values: [$out]"
n=$(grep -c 'warning: Divide or modulo by 0 detected. This can lead to unexpected results. 1 is being used as the result.' err)
[[ $n == 2 ]] || bad "0.26 warnings ($n): $(cat err)"
grep -q '^-e:1:36: warning' err || bad "the warning names the divisor's place: $(cat err)"
out=$("$SONDE" -q --dialect=0.17 -e "$prog" 2> err)
[[ $out == $'0\n0\n-3' ]] || bad "0.17 values: [$out]"
[[ ! -s err ]] || bad "0.17 warns: $(cat err)"
rm -f err
exit $fail
