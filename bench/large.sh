#!/bin/bash
# bench/large.sh (also run by bench/bench.sh): long probe bodies, the
# shape of tests/lib/bigscript.sh's "ifprint" (@m += 1; if (@m > 5) {
# printf(...); }) from 100 to 5,000 statements, sonde against bpftrace:
# wall time from start to exit (compile, load: nearly all the verifier,
# run, print) and peak RSS, and sonde's own load time and instruction
# count (-v).  bpftrace is stopped after LARGE_CAP seconds (60): "-"
# then, or when it failed.  Run as root.
#
#   SONDE=path  LARGE_N="100 500 ..."  LARGE_CAP=60
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-./sonde}
BPFTRACE=$(command -v bpftrace || true)
cap=${LARGE_CAP:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0 || s == "-") print "-"; else printf "%.3g\n", s / b }'; }
row() { printf '%-56s %10s %10s %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
# tool script: "ms kib", or "- -" when it failed or ran out of time
measure() {
	local t0 t1 kib rc
	t0=$(date +%s%N)
	kib=$(timeout -s KILL "$cap" /usr/bin/time -f '%M' "$1" "$2" 2>&1 >"$out/stdout" | tail -1)
	rc=$?
	t1=$(date +%s%N)
	if [[ $rc != 0 ]] || ! grep -q '^@m: ' "$out/stdout"; then echo "- -"; return; fi
	echo "$(( (t1 - t0) / 1000000 )) $kib"
}
for n in ${LARGE_N:-100 500 1000 2000 3000 5000}; do
	bash tests/lib/bigscript.sh ifprint "$n" > "$out/s.bt"
	read -r sms skib < <(measure "$SONDE" "$out/s.bt")
	bms=- bkib=-
	[[ -n $BPFTRACE ]] && read -r bms bkib < <(measure "$BPFTRACE" "$out/s.bt")
	v=$("$SONDE" -v "$out/s.bt" 2>&1 >/dev/null | sed -n 's/.*loaded BEGIN: \([0-9]*\) instructions, \([0-9]*\) verified, in \([0-9.]*\) ms/\1 \2 \3/p')
	row "$n statements: start to exit (ms)" "$sms" "$bms"
	row "  peak RSS (KiB)" "$skib" "$bkib"
	printf '      sonde: %s instructions, %s verified, loaded in %s ms\n' $v
done
