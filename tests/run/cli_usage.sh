#!/bin/bash
# -h prints the usage (starting "USAGE:", as bpftrace's) on stdout and
# exits 0; an unknown option prints it on stderr and exits 1; -V the
# version; --usdt-file-activation is accepted (bpftrace's wrappers pass
# it) and changes nothing.
set -u
out=$("$SONDE" -h) || { echo "-h: exit $?"; exit 1; }
[[ $(head -n 1 <<< "$out") == "USAGE:" ]] || { echo "-h: $out"; exit 1; }
grep -q -- "--usdt-file-activation" <<< "$out" || { echo "-h lacks --usdt-file-activation"; exit 1; }
err=$("$SONDE" -idonotexist 2>&1 >/dev/null); st=$?
(( st == 1 )) || { echo "bad flag: exit $st"; exit 1; }
grep -qx "USAGE:" <<< "$err" || { echo "bad flag: $err"; exit 1; }
[[ $("$SONDE" -V) =~ ^sonde\ [0-9]+\.[0-9]+ ]] || { echo "-V: $("$SONDE" -V)"; exit 1; }
out=$("$SONDE" --usdt-file-activation -q -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1)
[[ $out == "ok" ]] || { echo "--usdt-file-activation: $out"; exit 1; }
exit 0
