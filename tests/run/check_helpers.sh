#!/bin/bash
# -k and -kk: each failed helper call is reported, as bpftrace 0.17
# does, with the helper, the error and the place in the script.  The
# trigger makes 3 getppid and 2 getpid calls; every str(8) fails
# (address 8 is never mapped: EFAULT), a memory read that only -kk
# reports, once per call, and the probes of the wildcard share its
# place.  With BPFTRACE_MAP_KEYS_MAX=1 the second key of @m fails
# (E2BIG, reported by -k), and delete() of a missing key too (ENOENT).
. "$SONDE_ROOT/tests/lib/trace.sh"
prog='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid, tracepoint:syscalls:sys_enter_getpid /pid == $1/ { @[str(8)] = count(); }'
trace syscalls getppid 3 getpid 2 -- "$SONDE" -kk -e "$prog" @TRIG@
expect "Attaching 3 probes...
ready


@[]: 5"
want='-e:2:93: warning: Failed to probe_read_str: Bad address (-14)'
n=$(grep -cxF -- "$want" "$work/err")
(( n == 5 )) || die "want 5 times '$want', got $n: $(cat "$work/err")"
[[ $(sed -n 3p "$work/err") == *' ^~~~~~' ]] || die "no caret: $(cat "$work/err")"
(( $(wc -l < "$work/err") == 15 )) || die "more than the 5 warnings: $(cat "$work/err")"

# -k alone: reads are not reported
trace syscalls getppid 3 -- "$SONDE" -k -e "$prog" @TRIG@
expect "Attaching 3 probes...
ready


@[]: 3"
stderr_clean

# -k: map_update_elem and map_delete_elem, in text and JSON
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -k -e 'BEGIN { @m[1] = 1; @m[2] = 2;
  delete(@m[3]); exit(); }' 2>&1 >/dev/null | grep warning)
want='-e:1:20: warning: Failed to map_update_elem: Argument list too long (-7)
-e:2:10: warning: Failed to map_delete_elem: No such file or directory (-2)'
[[ $out == "$want" ]] || die "-k text: want '$want', got '$out'"
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -k -f json -e 'BEGIN { @m[1] = 1; @m[2] = 2;
  delete(@m[3]); exit(); }' 2>/dev/null | grep helper_error)
want='{"type": "helper_error", "helper": "map_update_elem", "retcode": -7, "line": 1, "col": 20}
{"type": "helper_error", "helper": "map_delete_elem", "retcode": -2, "line": 2, "col": 10}'
[[ $out == "$want" ]] || die "-k json: want '$want', got '$out'"

# without -k nothing is said (but the map's drop at exit)
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -e 'BEGIN { @m[1] = 1; @m[2] = 2;
  delete(@m[3]); exit(); }' 2>&1 >/dev/null)
[[ $out == '@m: 1 keys dropped, map full (raise with BPFTRACE_MAP_KEYS_MAX)' ]] ||
	die "without -k: $out"
exit 0
