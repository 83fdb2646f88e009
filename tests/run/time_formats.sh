#!/bin/bash
# time() and strftime(): default and custom formats, %f microseconds, and
# the wall clock they show is the current one.  Also a strftime() value
# stored in a map prints as text.
set -u
before=$(date +%s)
out=$("$SONDE" -q -e 'BEGIN {
	time();
	time("T2 %Y-%m-%d %H:%M:%S\n");
	printf("S1 %s\n", strftime("%Y-%m-%dT%H:%M:%S", nsecs));
	printf("S2 [%s]\n", strftime("%H:%M:%S.%f", nsecs));
	printf("S3 %s\n", strftime("%s", nsecs));
	time("T3 %s\n");
	@t = strftime("%Y", nsecs);
	exit();
}') || { echo "sonde failed"; exit 1; }
after=$(date +%s)
year=$(date +%Y)
fail=0
line() { # N REGEX: line N of the output must match REGEX
	local l
	l=$(sed -n "$1p" <<< "$out")
	if [[ ! $l =~ $2 ]]; then
		echo "line $1: '$l' does not match /$2/"
		fail=1
	fi
}
d='[0-9][0-9]'
line 1 "^$d:$d:$d\$"
line 2 "^T2 [0-9]{4}-$d-$d $d:$d:$d\$"
line 3 "^S1 [0-9]{4}-$d-${d}T$d:$d:$d\$"
line 4 "^S2 \[$d:$d:$d\.[0-9]{6}\]\$"
line 5 '^S3 [0-9]+$'
line 6 '^T3 [0-9]+$'
for n in 5 6; do
	s=$(sed -n "${n}p" <<< "$out" | awk '{ print $2 }')
	if [[ $s =~ ^[0-9]+$ ]] && (( s < before - 1 || s > after + 1 )); then
		echo "line $n: epoch $s not within [$before, $after]"
		fail=1
	fi
done
if ! grep -qx "@t: $year" <<< "$out"; then
	echo "no '@t: $year' line"
	fail=1
fi
(( fail )) && printf '%s\n' "--- output:" "$out"
exit $fail
