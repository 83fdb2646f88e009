#!/bin/bash
# profile:hz:99 samples every CPU 99 times a second: a trigger that
# spins for about 1 s, moving across the online CPUs (at most 8), is
# caught about 99 times in all, and on each CPU; profile:ms:20 is 50 a
# second.  The bounds allow for a busy or slow VM, not for a probe that
# never fires, fires on one CPU only, or fires on every tick.  `probe`
# is the canonical name.
. "$SONDE_ROOT/tests/lib/trace.sh"
cpus=()
IFS=, read -r -a ranges < /sys/devices/system/cpu/online
for r in "${ranges[@]}"; do
	for ((c = ${r%-*}; c <= ${r#*-}; c++)); do
		(( ${#cpus[@]} < 8 )) && cpus+=("$c")
	done
done
per=$((1000 / ${#cpus[@]}))
targs=()
for c in "${cpus[@]}"; do targs+=(cpu "$c" spin "$per"); done
trace load "${targs[@]}" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
profile:hz:99 /pid == $1/ { @hz = count(); @cpu[cpu] = count(); @name[probe] = count(); }
profile:ms:20 /pid == $1/ { @ms = count(); @name[probe] = count(); }' @TRIG@
stderr_clean
count() { sed -n "s/^@$1: //p" "$work/out"; }
hz=$(count hz) ms=$(count ms)
(( hz >= 40 && hz <= 110 )) || die "profile:hz:99 saw the 1 s spin $hz times"
(( ms >= 20 && ms <= 56 )) || die "profile:ms:20 saw the 1 s spin $ms times"
# each CPU the trigger spun on for $per ms saw it about $per / 10 times
want=
for c in "${cpus[@]}"; do
	n=$(count "cpu\\[$c\\]")
	(( n >= per / 40 && n <= per / 9 + 1 )) ||
		die "CPU $c saw the trigger ${n:-0} times in $per ms: $(cat "$work/out")"
done
got=$(sed -E 's/^(@[a-z]+)(\[[^]]*\])?: [0-9]+$/\1\2: N/; s/^@cpu\[[0-9]+\]: N$/@cpu[C]: N/' "$work/out" | awk '!(/^@cpu\[C\]/ && seen++)')
expect "Attaching 3 probes...
ready


@cpu[C]: N
@hz: N
@ms: N
@name[profile:ms:20]: N
@name[profile:hz:99]: N" <(echo "$got")
