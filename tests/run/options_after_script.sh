#!/bin/bash
# Options may follow the script (file or -e), between its positional
# parameters, as bpftrace takes them; "--" ends the options, and a
# negative number is a parameter, not an option.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > s.bt <<'BT'
BEGIN { printf("%s %d %d\n", str($1), $2, $#); }
tracepoint:sched:sched_process_exit /pid == cpid/ { printf("child done\n"); }
BT
"$SONDE" s.bt word -4 -q -c 'true' > out 2> err || die "exit $?: $(cat err)"
expect "word -4 2
child done

"
[[ ! -s err ]] || die "-q after the script was not taken: $(cat err)"
"$SONDE" -e 'BEGIN { printf("%s %s %d\n", str($1), str($2), $#); exit(); }' -q -- -q x > out 2> err || die "--: $(cat err)"
expect "-q x 2

"
"$SONDE" s.bt word -z > out 2> err && die "an unknown option after the script was taken"
grep -q "invalid option -- 'z'" err || die "-z: $(cat err)"
echo ok
