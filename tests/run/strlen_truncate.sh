#!/bin/bash
# BPFTRACE_STRLEN=8: strings hold 7 bytes and a NUL, so a longer parameter
# is cut to 7 bytes by str(), as bpftrace 0.17 does.
set -u
out=$(BPFTRACE_STRLEN=8 "$SONDE" -q -e 'BEGIN {
	$s = str($1);
	@k[$s] = 1;
	printf("[%s] [%s]\n", $s, str($2));
	exit();
}' abcdefghijkl abc 2>&1) || { echo "sonde failed: $out"; exit 1; }
expect="[abcdefg] [abc]


@k[abcdefg]: 1"
if [[ $out != "$expect" ]]; then
	diff <(echo "$expect") <(echo "$out")
	exit 1
fi
