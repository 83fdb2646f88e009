#!/bin/bash
# sonde dtrace -lv: each probe's line, then its stability attributes
# and the types of its args[], as dtrace -lv prints them.
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$("$SONDE" dtrace -lvn io:::done | tail -n +3)
same "io:::done" "
	Probe Description Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Attributes
		Identifier Names: Evolving
		Data Semantics:   Evolving
		Dependency Class: ISA

	Argument Types
		args[0]: bufinfo_t *
		args[1]: devinfo_t *
		args[2]: fileinfo_t *" "$out"
out=$("$SONDE" dtrace -lvn sched:::on-cpu | grep -A1 "Argument Types")
same "sched:::on-cpu" "	Argument Types
		None" "$out"
out=$("$SONDE" dtrace -lvn proc:::signal-send | grep 'args\[')
same "proc:::signal-send" "		args[0]: lwpsinfo_t *
		args[1]: psinfo_t *
		args[2]: int" "$out"
exit 0
