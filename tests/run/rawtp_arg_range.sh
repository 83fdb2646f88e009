#!/bin/bash
# A raw tracepoint has a fixed number of arguments (sys_enter has 2:
# regs and id); a script that reads past them cannot be attached, and
# sonde must say which argument is wrong, not just "Invalid argument"
# (nor blame itself for a verifier rejection, for arg12 and up).
set -u
fail=0
for a in arg2 arg5 arg11 arg12 arg31; do
	err=$(timeout 10 "$SONDE" -e "rawtracepoint:sys_enter { @ = $a; } interval:ms:100 { exit(); }" 2>&1 >/dev/null)
	rc=$?
	if (( rc != 1 )); then echo "$a: exit $rc, want 1"; fail=1; fi
	if [[ $err != *"$a"* ]]; then echo "$a: the error does not name $a: $err"; fail=1; fi
	if [[ $err == *"bug in sonde"* ]]; then echo "$a: sonde blames itself: $err" | head -3; fail=1; fi
done
exit $fail
