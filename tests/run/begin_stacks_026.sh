#!/bin/bash
# Today's bpftrace runs begin and end for user space: usermode is 1
# there, and kstack and ustack are the stacks of the run (sonde's own);
# the 0.17 dialect refuses them (tests/errors).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q --dialect=0.26 -e 'begin { printf("%d ", usermode); } end { print(usermode); }' > out 2> err || die "usermode: $(cat err)"
expect "1 1

"
"$SONDE" -q --dialect=0.26 -e 'begin { printf("%s", kstack); @k[kstack(2)] = count(); $t = (1, ustack); print($t.0); }' > out 2> err ||
	die "stacks: $(cat err)"
grep -q '^        bpf_prog_[0-9a-f]*_begin+[0-9]*$' out || die "kstack: $(cat out)"
grep -q '^@k\[$' out || die "kstack key: $(cat out)"
"$SONDE" -q --dialect=0.17 -e 'BEGIN { print(usermode); }' > out 2> err && die "0.17 took usermode in BEGIN"
grep -q "error\[E_CONTEXT\]: 'usermode' is not available in BEGIN probes" err || die "0.17: $(cat err)"
echo ok
