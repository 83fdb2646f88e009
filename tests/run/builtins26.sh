#!/bin/bash
# Builtins as today's bpftrace has them: nsecs(sw_tai) reads the TAI
# clock; cpid without -c is 0 (an error under --dialect=0.17); duration
# literals are nanoseconds; a function without arguments may be written
# without the call (default_str_length, exit).
set -u
out=$("$SONDE" --dialect=0.26 -e 'BEGIN {
	$a = nsecs(sw_tai); $b = nsecs(tai);
	printf("%d %d %d\n", $b >= $a, $b - $a < 1000000000, cpid);
	printf("%d %d %d %d %ld %ld %ld %ld\n", 7ns, 5us, 100ms, 1s, 1m, 2h, 1d, 1_000s);
	printf("%d\n", default_str_length == default_str_length());
	exit;
}' 2>&1) || { echo "sonde failed: $out"; exit 1; }
[[ $out == $'Attached 1 probe\n1 1 0\n7 5000 100000000 1000000000 60000000000 7200000000000 86400000000000 1000000000000\n1' ]] || { echo "got: $out"; exit 1; }
out=$("$SONDE" --dialect=0.17 --dump=bpf -e 'BEGIN { printf("%d\n", cpid); }' 2>&1) &&
	{ echo "0.17 accepted cpid without -c"; exit 1; }
[[ $out == *"error[E_CONTEXT]: cpid needs a command"* ]] || { echo "got: $out"; exit 1; }
exit 0
