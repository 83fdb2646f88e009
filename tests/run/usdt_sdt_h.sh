#!/bin/bash
# include/sonde/sdt.h: notes readelf, gdb, perf and bpftrace also read, and the
# exact values of 0 to 12 arguments of every integer type, strings and
# expressions, from gcc at -O0 and -O2, clang, and g++ (as C++); a
# semaphore-guarded probe is enabled only while traced.
. "$SONDE_ROOT/tests/usdt/lib.sh"

script='
usdt:./prog:sdt:none { printf("none\n"); }
usdt:./prog:sdt:ints { printf("ints %d %d %d %d %d %ld %ld %lu %d %d %d %c\n", arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, arg10, arg11); }
usdt:./prog:sdt:strs { printf("strs %s %s %s\n", str(arg0), str(arg1), str(arg2)); }
usdt:./prog:sdt:exprs { printf("exprs %d %d %d %d\n", arg0, arg1, arg2, arg3); }
usdt:./prog:sdt:guarded { printf("guarded %d %d\n", arg0, arg1); }'
want='none
ints -100 200 -30000 60000 -2000000000 4000000000 -9000000000000000000 18000000000000000000 -1 1 2 A
strs probe-3 ./prog 3
exprs 4 -6 -7 3
guarded 0 1
guarded 1 2
guarded 2 3'

builds=("gcc -O0" "gcc -O2" "gcc -O2 -fno-pie -no-pie")
command -v clang > /dev/null && builds+=("clang -O2" "clang -O0")
command -v g++ > /dev/null && builds+=("g++ -x c++ -O2")
for b in "${builds[@]}"; do
	read -r -a cmd <<< "$b"
	"${cmd[@]}" -std=$([[ $b == g++* ]] && echo c++11 || echo c11) -Wall -Wextra \
		-pedantic -Werror -I"$SONDE_ROOT/include" -o prog "$USDT/sdt_prog.c" ||
		{ echo "FAIL $b: does not compile"; exit 1; }
	# untraced, the guarded probe is off
	same "$b: untraced" "enabled 0" "$(./prog)"
	trace "$b" -c './prog prog.out' -e "$script"
	same "$b: values" "$want" "$out"
	same "$b: enabled while traced" "enabled 3" "$(cat prog.out)"
done

# the notes as readelf shows them: provider, name, a semaphore in
# .probes for the guarded probe only, and .stapsdt.base
notes=$(readelf -n prog | awk '/Provider:/ { p = $2 } /Name:/ { n = $2 }
	/Semaphore:/ { s = ($NF ~ /^0x0+$/) ? "none" : "sem" } /Arguments:/ { print p ":" n ":" s ":" NF - 1 }')
same "readelf -n" "sdt:none:none:0
sdt:ints:none:12
sdt:strs:none:3
sdt:exprs:none:4
sdt:guarded:sem:2" "$notes"
readelf -S prog | grep -q ' \.stapsdt\.base ' || { echo "FAIL: no .stapsdt.base section"; exit 1; }
readelf -S prog | grep -q ' \.probes ' || { echo "FAIL: no .probes section"; exit 1; }

# gdb lists them, semaphore included
if command -v gdb > /dev/null; then
	got=$(gdb -batch -ex 'info probes' ./prog 2>/dev/null | awk '$1 == "stap" { print $2 ":" $3 ":" ($5 ~ /^0x/ ? "sem" : "-") }')
	same "gdb info probes" "sdt:exprs:-
sdt:guarded:sem
sdt:ints:-
sdt:none:-
sdt:strs:-" "$(sort <<< "$got")"
fi

# perf lists them as SDT events (its cache in a HOME of our own)
if command -v perf > /dev/null; then
	HOME=$work perf buildid-cache --add ./prog 2> /dev/null
	got=$(HOME=$work perf list sdt 2> /dev/null | awk '/SDT event/ { print $1 }')
	same "perf list sdt" "sdt_sdt:exprs
sdt_sdt:guarded
sdt_sdt:ints
sdt_sdt:none
sdt_sdt:strs" "$(sort <<< "$got")"
fi

# bpftrace 0.17 reads the same values (it has only arg0..arg5, and
# makes every argument a sign-extended unsigned 64-bit integer)
if command -v bpftrace > /dev/null; then
	bt='usdt:./prog:sdt:ints { printf("ints %lld %lld %lld %lld %lld %lld\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:./prog:sdt:strs { printf("strs %s %s\n", str(arg0), str(arg2)); }
usdt:./prog:sdt:guarded { printf("guarded %lld %lld\n", arg0, arg1); }'
	got=$(timeout 20 bpftrace -e "$bt" -c './prog prog.out' 2>/dev/null | grep -v '^Attaching' | sed '/^$/d')
	trace "same script" -c './prog prog.out' -e "$bt"
	same "bpftrace and sonde" "$got" "$(sed '/^$/d' <<< "$out")"
fi
exit 0
