#!/bin/bash
# software:page-faults:1 and software:minor-faults:1 fire on every page
# fault: a trigger that writes to 300 fresh anonymous pages faults at
# least 300 times (a few more for its own code and stack, not hundreds);
# major-faults never fire for it.  With the default count (100 for
# page-faults) the program runs once per 100 faults on a CPU.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace load touch 300 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
software:page-faults:1 /pid == $1/ { @pf = count(); @name[probe] = count(); }
s:minor-faults:1 /pid == $1/ { @minor = count(); }
software:major-faults:1 /pid == $1/ { printf("major fault\n"); }
software:faults /pid == $1/ { @every100 = count(); }' @TRIG@
stderr_clean
count() { sed -n "s/^@$1: //p" "$work/out"; }
pf=$(count pf) minor=$(count minor) every=$(count every100)
(( pf >= 300 && pf <= 400 )) || die "page-faults: $pf, want 300..400: $(cat "$work/out")"
(( minor >= 300 && minor <= 400 )) || die "minor-faults: $minor, want 300..400"
# other processes' faults share the per-CPU counter: 0..10 for ~300
(( ${every:-0} <= 10 )) || die "software:faults (every 100th): $every"
got=$(sed -E 's/^(@(pf|minor|name\[.*\])): [0-9]+$/\1: N/' "$work/out" | grep -v '^@every100')
expect "Attaching 5 probes...
ready


@minor: N
@name[software:page-faults:1]: N
@pf: N" <(echo "$got")
