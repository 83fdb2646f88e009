#!/bin/bash
# BPFTRACE_STRLEN raises the string size: a 151-byte parameter survives
# str(), a variable, a map key and value, and str($1, 100) is accepted.
# (bpftrace 0.17 cannot do this: its strings live on the 512-byte stack.)
set -u
long=$(printf 'x%.0s' $(seq 150))Z
out=$(BPFTRACE_STRLEN=200 "$SONDE" -q -e 'BEGIN {
	$s = str($1);
	@k[$s] = 1;
	@v = $s;
	printf("%d %d\n", $s == str($1), @k[str($1)]);
	printf("%s\n", str($1, 100));
	printf("%s\n", $s);
	exit();
}' "$long") || { echo "sonde failed"; exit 1; }
expect="1 1
$(printf 'x%.0s' $(seq 100))
$long


@k[$long]: 1
@v: $long"
if [[ $out != "$expect" ]]; then
	diff <(echo "$expect") <(echo "$out")
	exit 1
fi
