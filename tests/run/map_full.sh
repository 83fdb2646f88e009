#!/bin/bash
# BPFTRACE_MAP_KEYS_MAX=10: keys past the 10th are dropped; sonde warns on
# stderr once while running and says at exit how many were dropped
# (bpftrace 0.17 drops them silently).  Keys already in the map can still
# be updated.  The run lasts 2.5 s: the warning is checked once a second.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
BPFTRACE_MAP_KEYS_MAX=10 "$SONDE" -q -e '
interval:ms:10 /@i < 25/ { @m[@i] = @i; @i++; @m[0] = 100; }
interval:ms:2500 { exit(); }
END { clear(@i); }' > "$dir/out" 2> "$dir/err" ||
	{ echo "sonde failed"; cat "$dir/err"; exit 1; }
fail=0
want='@m[1]: 1
@m[2]: 2
@m[3]: 3
@m[4]: 4
@m[5]: 5
@m[6]: 6
@m[7]: 7
@m[8]: 8
@m[9]: 9
@m[0]: 100'
got=$(grep '^@m' "$dir/out")
[[ $got == "$want" ]] || { echo "stdout:"; diff <(echo "$want") <(echo "$got"); fail=1; }
want='sonde: warning: map @m is full (10 keys); new keys are dropped (raise BPFTRACE_MAP_KEYS_MAX)
@m: 15 keys dropped, map full (raise with BPFTRACE_MAP_KEYS_MAX)'
got=$(cat "$dir/err")
[[ $got == "$want" ]] || { echo "stderr:"; diff <(echo "$want") <(echo "$got"); fail=1; }
exit $fail
