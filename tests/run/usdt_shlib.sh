#!/bin/bash
# A probe in a shared library (PIC, its own semaphore), called from a
# PIE and from a non-PIE program; the library named by its path and,
# with -p, by its short name through the process's maps.
. "$SONDE_ROOT/tests/usdt/lib.sh"
build libsondetest.so -shared -fPIC -O2 "$USDT/lib_sdt.c"
build main_pie -fPIE -pie -O2 "$USDT/lib_main.c" -L. -lsondetest -Wl,-rpath,"$PWD"
build main_nopie -fno-pie -no-pie -O2 "$USDT/lib_main.c" -L. -lsondetest -Wl,-rpath,"$PWD"
[[ $(readelf -h main_pie) == *"DYN ("* && $(readelf -h main_nopie) == *"EXEC ("* ]] ||
	{ echo "FAIL: PIE and non-PIE builds"; exit 1; }

same "-l" "usdt:$PWD/libsondetest.so:libprov:guarded
usdt:$PWD/libsondetest.so:libprov:work" "$("$SONDE" -l "usdt:$PWD/libsondetest.so:*")"

for m in main_pie main_nopie; do
	same "$m untraced" "enabled 0 first -1 last -1 of 3" "$(./$m 3 0)"
	trace "$m" -c "./$m 3 0 $m.out" -e "
usdt:$PWD/libsondetest.so:libprov:work { printf(\"work %d %d\n\", arg0, arg1); }
usdt:./libsondetest.so:libprov:guarded { printf(\"guarded %d\n\", arg0); }"
	same "$m traced" "work 0 0
guarded 0
work 1 2
guarded 1
work 2 4
guarded 2" "$out"
	same "$m enabled" "enabled 3 first 0 last 2 of 3" "$(cat $m.out)"
done

# -p and the library's short name, resolved in the process's maps
./main_pie 0 20 pid.out &
pid=$!
sleep 0.3
trace "-p libsondetest" -p $pid -e 'usdt:libsondetest:libprov:work { @n = count(); @bad = sum(arg1 != arg0 * 2); } interval:ms:500 { exit(); }'
kill -TERM $pid
wait $pid
n=$(awk '/^@n:/ { print $2 }' <<< "$out")
(( n >= 5 && n <= 40 )) || { echo "FAIL: -p: $n probes in 0.5 s at 50/s:"; echo "$out"; exit 1; }
grep -q '^@bad: 0$' <<< "$out" || { echo "FAIL: -p values:"; echo "$out"; exit 1; }
exit 0
