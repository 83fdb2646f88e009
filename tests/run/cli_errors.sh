#!/bin/bash
# Command-line mistakes: one clear line each on stderr, exit 1, nothing
# run (no "Attaching").
set -u
fail=0
check() {	# want-substring, then sonde's arguments
	local want=$1 out rc
	shift
	out=$("$SONDE" "$@" 2>&1 </dev/null)
	rc=$?
	if [[ $rc -ne 1 || $out != *"$want"* || $out == *"Attaching "[0-9]* ]]; then
		echo "sonde $*: exit $rc, want 1 and '$want': $out"
		fail=1
	fi
}
check "unrecognized option" --no-such-option -e 'BEGIN { exit(); }'
check "--dump takes ast or bpf, not 'x'" --dump=x -e 'BEGIN { exit(); }'
check "no program: give a FILE or -e 'PROGRAM'"
check "-p takes a process id, not 'abc'" -p abc -e 'BEGIN { exit(); }'
check "--dwarf-pid takes a process id, not '0'" --dwarf-pid 0 -e 'BEGIN { exit(); }'
check "--dump-cfi /no/such/file: No such file or directory" --dump-cfi /no/such/file
check "-p and -c cannot be used together" -p 1 -c true -e 'BEGIN { exit(); }'
check "no such process" -p 1073741823 -e 'BEGIN { exit(); }'
check "cannot read /no/such/script.bt" /no/such/script.bt
check "-f takes text, json or folded, not 'xml'" -f xml -e 'BEGIN { exit(); }'
check "-B takes line, full or none, not 'some'" -B some -e 'BEGIN { exit(); }'
check "cannot write /no/such/dir/out" -o /no/such/dir/out -e 'BEGIN { exit(); }'
check "--flamegraph: no map is keyed by a stack" --flamegraph /dev/null \
	-e 'BEGIN { @[comm] = count(); exit(); }'
check "cannot write /no/such/dir/f.svg" --flamegraph /no/such/dir/f.svg \
	-e 'profile:hz:99 { @[kstack] = count(); }'
out=$(BPFTRACE_STRLEN=5000 "$SONDE" -e 'BEGIN { exit(); }' 2>&1)
[[ $? -eq 1 && $out == *"BPFTRACE_STRLEN=5000 is not a number in 1..4096"* ]] ||
	{ echo "BPFTRACE_STRLEN=5000: $out"; fail=1; }
out=$(BPFTRACE_MAP_KEYS_MAX=zero "$SONDE" -e 'BEGIN { exit(); }' 2>&1)
[[ $? -eq 1 && $out == *"BPFTRACE_MAP_KEYS_MAX=zero is not a number"* ]] ||
	{ echo "BPFTRACE_MAP_KEYS_MAX=zero: $out"; fail=1; }
exit $fail
