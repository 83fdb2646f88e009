#!/bin/bash
# --no-warnings silences sonde's warnings, as bpftrace 0.17's does:
# compile warnings (buf() cut, #warning), -kk's reports of failed reads
# in text (JSON keeps its helper_error messages: they are output), a
# map that fills up while running, and a wildcard's probe the kernel
# refuses; errors and the output stay.  Each script is run without the
# option first, to show that it does warn.
set -u
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check() {	# NAME WANT-STDOUT SONDE-ARGS...: warns without, not with
	local name=$1 want=$2
	shift 2
	"$SONDE" "$@" > "$dir/out" 2> "$dir/err"
	grep -q 'warning' "$dir/err" || { echo "$name: no warning without --no-warnings: $(cat "$dir/err")"; fail=1; }
	"$SONDE" --no-warnings "$@" > "$dir/out" 2> "$dir/err" ||
		{ echo "$name: failed: $(cat "$dir/err")"; fail=1; }
	[[ -s $dir/err ]] && { echo "$name: stderr with --no-warnings: $(cat "$dir/err")"; fail=1; }
	[[ $(cat "$dir/out") == "$want" ]] || { echo "$name: stdout '$(cat "$dir/out")', want '$want'"; fail=1; }
}
check buf "ab$(printf '\\x00%.0s' {1..62})" -q -e 'BEGIN { printf("%r\n", buf("ab", 100)); exit(); }'
check pp '7' -q -e '#warning careful
BEGIN { printf("%d\n", 7); exit(); }'
check kk 'x' -q -kk -e 'BEGIN { printf("x%s\n", str(8)); exit(); }'

# JSON: helper_error messages stay
out=$("$SONDE" --no-warnings -q -kk -f json -e 'BEGIN { printf("x%s\n", str(8)); exit(); }' 2>&1)
[[ $out == '{"type": "helper_error", "helper": "probe_read_str", "retcode": -14, "line": 1, "col": 25}
{"type": "printf", "data": "x\n"}' ]] || { echo "json: $out"; fail=1; }

# a map full while running: the warning goes, the count at exit stays
prog='BEGIN { @m[1] = 1; @m[2] = 2; } interval:ms:1500 { exit(); }'
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -q -e "$prog" 2>&1 >/dev/null)
[[ $out == *'sonde: warning: map @m is full (1 keys)'* ]] || { echo "mapfull: no warning: $out"; fail=1; }
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" --no-warnings -q -e "$prog" 2>&1 >/dev/null)
[[ $out == '@m: 1 keys dropped, map full (raise with BPFTRACE_MAP_KEYS_MAX)' ]] || { echo "mapfull --no-warnings: $out"; fail=1; }
exit $fail
