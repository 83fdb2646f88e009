#!/bin/bash
# ksym(addr): the name of the kernel symbol containing addr (no offset),
# 0xADDR when none does; the same in map keys, values, print() and
# printf("%s").  Then ksym() of the function pointers timers run
# (tracepoint:timer:timer_start args.function), which must all be names.
set -u
# a function alone at its address (of aliases the first listed prints)
addr=$(awk '$3 == "do_syscall_64" { print $1; exit }' /proc/kallsyms)
[[ -n $addr ]] || { echo "no do_syscall_64 in /proc/kallsyms"; exit 77; }
(( $(grep -c "^$addr " /proc/kallsyms) == 1 )) ||
	{ echo "do_syscall_64 has aliases here"; exit 77; }
out=$("$SONDE" -q -e "BEGIN {
	printf(\"%s|%s|%s\n\", ksym(0x$addr), ksym(0x$addr + 3), ksym(1));
	print(ksym(0x$addr));
	@k[ksym(0x$addr)] = count();
	@v = ksym(0x$addr + 1);
	@t = (ksym(0x$addr), 1);
	exit();
}" 2>&1) || { echo "sonde failed: $out"; exit 1; }
want="do_syscall_64|do_syscall_64|0x1
do_syscall_64


@k[do_syscall_64]: 1
@t: (do_syscall_64, 1)
@v: do_syscall_64"
[[ $out == "$want" ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }

out=$("$SONDE" -q -e 'tracepoint:timer:timer_start { @[ksym(args->function)] = count(); }
	interval:s:1 { exit(); }' 2>&1) || { echo "sonde failed: $out"; exit 1; }
keys=$(grep '^@\[' <<< "$out")
[[ -n $keys ]] || { echo "no timer started in 1 s?"; printf '%s\n' "$out"; exit 1; }
if grep -qvE '^@\[[A-Za-z_][A-Za-z0-9_.]*\]: [0-9]+$' <<< "$keys"; then
	echo "a timer function is not a symbol name:"; printf '%s\n' "$out"; exit 1
fi
exit 0
