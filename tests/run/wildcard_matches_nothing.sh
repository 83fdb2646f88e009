#!/bin/bash
# A block whose attach points are all wildcards that match nothing here
# is checked, then skipped with a warning, as bpftrace 0.17 skips it:
# the script runs with its other probes (its maps are still declared:
# END prints the skipped block's empty map); when nothing would attach
# at all, the wildcards' messages are errors.
. "$SONDE_ROOT/tests/lib/trace.sh"
"$SONDE" -e 'uprobe:/bin/sh:sonde_nosuch_fn* { @n[func] = count(); }
BEGIN { printf("begin\n"); exit(); }
END { print(@n); printf("end\n"); }' > "$work/out" 2> "$work/err" ||
	die "exit $?: $(cat "$work/err")"
expect "Attaching 2 probes...
begin

end


"
grep -q "^-e:1:1: warning: uprobe: no function of .* matches sonde_nosuch_fn\*; the block is skipped$" "$work/err" ||
	die "no warning: $(cat "$work/err")"
if "$SONDE" -e 'uprobe:/bin/sh:sonde_nosuch_fn* { @ = count(); }' > "$work/out" 2> "$work/err"; then
	die "a script with nothing to attach ran"
fi
grep -q "^-e:1:1: error\[E_PROBE\]: No probes to attach: uprobe: no function of .* matches sonde_nosuch_fn\*$" "$work/err" ||
	die "no error: $(cat "$work/err")"
# a function named exactly is an error even beside other blocks
if "$SONDE" -e 'uprobe:/bin/sh:sonde_nosuch_fn { @ = count(); } BEGIN { exit(); }' > "$work/out" 2> "$work/err"; then
	die "a missing function named exactly was skipped"
fi
grep -q "error\[E_PROBE\]" "$work/err" || die "no error: $(cat "$work/err")"
exit 0
