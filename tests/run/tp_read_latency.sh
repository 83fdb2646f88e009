#!/bin/bash
# The classic read-latency one-liner: @start[tid] = nsecs on entry, a
# hist of the microseconds on return, then delete(@start[tid]).  The
# trigger makes 12 reads: every hist row is a power-of-two bucket, the
# counts add up to 12, and @start is empty at the end.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls read 12 65536 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_read /pid == $1/ { @start[tid] = nsecs; }
tracepoint:syscalls:sys_exit_read /pid == $1 && @start[tid]/ {
	@us = hist((nsecs - @start[tid]) / 1000);
	@ns[comm] = stats(nsecs - @start[tid]);
	@n = count();
	delete(@start[tid]);
}' @TRIG@
stderr_clean
out=$work/out
# The fixed lines, then the hist rows from line 10 to the last blank line.
sed -n '1,5p;7,9p' "$out" > "$work/fixed"
expect "Attaching 3 probes...
ready


@n: 12


@us: " "$work/fixed"
grep -qE '^@ns\[syscalls\]: count 12, average [1-9][0-9]*, total [1-9][0-9]*$' <(sed -n 6p "$out") ||
	die "bad @ns line: $(sed -n 6p "$out")"
# hist rows: "[lo, hi)   count |bar|", 79 wide, counts add up to 12
sum=0 rows=0
while IFS= read -r line; do
	[[ -z $line ]] && break
	[[ $line =~ ^(\[[0-9]+[KM]?,\ [0-9]+[KM]?\)|\[[01]\])\ +([0-9]+)\ \|(@*)\ *\|$ ]] ||
		die "bad hist row: '$line'"
	(( ${#line} == 79 )) || die "hist row is ${#line} wide, not 79: '$line'"
	sum=$((sum + BASH_REMATCH[2]))
	rows=$((rows + 1))
done < <(sed -n '10,$p' "$out")
(( sum == 12 )) || die "hist counts add up to $sum, not 12: $(cat "$out")"
(( rows >= 1 )) || die "no hist rows"
# one blank line after the hist, then nothing: @start printed nothing
[[ $(sed -n "$((10 + rows)),\$p" "$out") == "" ]] || die "extra lines: $(cat "$out")"
(( $(wc -l < "$out") == 10 + rows )) || die "extra lines: $(cat "$out")"
exit 0
