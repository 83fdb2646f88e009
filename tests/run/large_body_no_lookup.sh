#!/bin/bash
# A body long enough to be split into pieces whose statements never
# look a map up (only stores): the shared lookup function is not
# emitted, so the func_info matches the kernel's count of functions
# ("number of funcs in func_info doesn't match number of subprogs").
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
s='BEGIN { '
for i in $(seq 1 400); do s="$s @m$((i % 10))[$i] = $i;"; done
s="$s exit(); }"
"$SONDE" -q --dialect=0.17 -e "$s" > out 2> err || die "exit $?: $(head -5 err)"
[[ $(grep -c '^@m' out) == 400 ]] || die "$(grep -c '^@m' out) entries printed, not 400"
grep -qx '@m9\[399\]: 399' out || die "last entry: $(tail -3 out)"
"$SONDE" --dialect=0.17 --dump=bpf -e "$s" > out 2> err || die "dump: $(cat err)"
[[ $(grep -c 'call pc' out) -ge 2 ]] || die "the body was not split"
echo ok
