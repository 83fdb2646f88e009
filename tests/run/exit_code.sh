#!/bin/bash
# exit(code): sonde's exit status is code (its low 8 bits); the END
# probe still runs and the maps are printed; the first exit() wins;
# exit() alone leaves the status 0.  The interval script may run again
# before sonde stops: its exit(9) must not change the status.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
status() {	# status WANT SCRIPT: run it, check the status, keep stdout
	"$SONDE" -q -e "$2" > out 2> err
	local rc=$?
	[[ $rc == "$1" ]] || die "exit status $rc, not $1, for: $2 ($(cat err))"
	stderr_clean
}
status 3 'BEGIN { exit(3); }'
status 0 'BEGIN { exit(); }'
status 0 'BEGIN { exit(0); }'
status 5 'BEGIN { exit(256 + 5); }'
status 255 'BEGIN { exit(-1); }'
status 8 'BEGIN { $c = 7; exit($c + 1); } END { printf("end %d\n", 1); }'
expect "end 1

"
status 2 'interval:ms:10 { @n++; if (@n == 2) { exit(@n); } if (@n > 2) { exit(9); } }'
# an error still wins over the code
"$SONDE" -q -e 'BEGIN { exit(4); } kprobe:no_such_function_here { }' > out 2> err
[[ $? == 1 ]] || die "a failed attach did not exit 1"
echo ok
