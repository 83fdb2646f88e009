#!/bin/bash
# -B: with "full" the output waits in stdio's buffer until exit, with
# "line" and "none" (and by default) it is out at once.  Histogram bars
# are coloured only on a terminal (script(1) gives one), never in a pipe
# or file, and not with NO_COLOR.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
prog='BEGIN { printf("early\n"); } interval:ms:1500 { exit(); }'
for mode in full line none default; do
	if [[ $mode == default ]]; then opt=(); else opt=(-B "$mode"); fi
	"$SONDE" -q "${opt[@]}" -o "$dir/out.$mode" -e "$prog" &
	pid=$!
	sleep 0.8
	now=$(cat "$dir/out.$mode")
	wait $pid || { echo "-B $mode: sonde failed"; fail=1; }
	if [[ $mode == full ]]; then
		[[ -z $now ]] || { echo "-B full: output before exit: $now"; fail=1; }
	else
		[[ $now == early ]] || { echo "-B $mode: after 0.8 s the file has '$now'"; fail=1; }
	fi
	[[ $(head -1 "$dir/out.$mode") == early ]] || { echo "-B $mode: final output: $(cat "$dir/out.$mode")"; fail=1; }
done

hist='BEGIN { @h = hist(5); exit(); }'
if command -v script > /dev/null; then
	script -qc "$SONDE -q -e '$hist'" /dev/null > "$dir/tty" 2>&1
	grep -q $'\e\\[36m@' "$dir/tty" || { echo "no colour on a terminal:"; cat -v "$dir/tty"; fail=1; }
	NO_COLOR=1 script -qc "$SONDE -q -e '$hist'" /dev/null > "$dir/tty" 2>&1
	grep -q $'\e' "$dir/tty" && { echo "colour with NO_COLOR:"; cat -v "$dir/tty"; fail=1; }
fi
"$SONDE" -q -e "$hist" > "$dir/pipe" 2>&1
grep -q $'\e' "$dir/pipe" && { echo "colour in a pipe:"; cat -v "$dir/pipe"; fail=1; }
grep -q '^\[4, 8) *1 |@@@@' "$dir/pipe" || { echo "no histogram: $(cat "$dir/pipe")"; fail=1; }
exit $fail
