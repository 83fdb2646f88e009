#!/bin/bash
# Without a hardware PMU (this VM), a hardware probe cannot attach:
# sonde says why in one sentence and exits 1 before BEGIN runs.  On a
# machine with a PMU, hardware:cycles must count instead.
set -u
if [[ -e /sys/bus/event_source/devices/cpu || -e /sys/bus/event_source/devices/cpu_core ]]; then
	out=$(timeout 10 "$SONDE" -q -e 'hardware:cycles:100000 { @c = count(); } interval:ms:200 { exit(); }' 2>&1) ||
		{ echo "hardware:cycles failed with a PMU: $out"; exit 1; }
	[[ $out =~ @c:\ [1-9] ]] || { echo "no cycles counted: $out"; exit 1; }
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for spec in hardware:cycles h:cpu-cycles:100000 hardware:instructions:1000 hardware:cache-misses; do
	case $spec in
	*cycles) name=hardware:cpu-cycles:1000000 ;;
	h:cpu-cycles:100000) name=hardware:cpu-cycles:100000 ;;
	hardware:instructions:1000) name=hardware:instructions:1000 ;;
	hardware:cache-misses) name=hardware:cache-misses:1000000 ;;
	esac
	out=$(timeout 10 "$SONDE" -e "BEGIN { printf(\"begin ran\n\"); } $spec { @c = count(); } END { printf(\"end ran\n\"); }" 2> "$dir/err")
	rc=$?
	err=$(cat "$dir/err")
	want="sonde: probe $name: attach failed: this machine has no hardware performance counters (no PMU, as in most virtual machines); software:cpu-clock or profile probes sample instead"
	if (( rc != 1 )); then echo "$spec: exit $rc, want 1"; fail=1; fi
	if [[ $err != "$want" ]]; then printf '%s: stderr\n  %s\nwant\n  %s\n' "$spec" "$err" "$want"; fail=1; fi
	if [[ $out != "Attaching 3 probes..." ]]; then echo "$spec: stdout '$out'"; fail=1; fi
done
exit $fail
