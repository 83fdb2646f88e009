#!/bin/bash
# bench/stacks.sh (run by bench/bench.sh): the cost of a sampled user
# stack, walked by the call frame information (sonde's ustack) and by
# frame pointers (sonde's config dwarf_unwind = false, bpftrace's
# ustack), at 99 Hz and 999 Hz on every CPU.  The load: one deepwork
# per CPU (bench/deepwork.c: a call chain 24 deep, libc's start-up above
# it), so that nearly every sample lands in it; built -O2
# -fomit-frame-pointer for the CFI walk, and with frame pointers for the
# frame-pointer walks, so that all three columns take whole stacks.  The cost is the kernel's own count of the probe
# program's time (kernel.bpf_stats_enabled=1: run_time_ns / run_cnt of
# the program, read from bpf_prog_info before and after the load);
# "frames" is the mean depth of the stacks the tool printed, weighted
# by their counts; "work lost" the load's chains against a run without
# a tool.  Run as root.
#
#   SONDE=path   the sonde measured (default ./sonde)
#   SECS=5       seconds of load per row
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-./sonde}
SECS=${SECS:-5}
BPFTRACE=$(command -v bpftrace || true)
out=$(mktemp -d)
old=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -q kernel.bpf_stats_enabled="$old"; rm -rf "$out"' EXIT
cc -O2 -fomit-frame-pointer -o "$out/deepwork" bench/deepwork.c || exit 1
cc -O2 -fno-omit-frame-pointer -o "$out/deepwork-fp" bench/deepwork.c || exit 1
cc -O2 -o "$out/proginsns" bench/proginsns.c || exit 1
sysctl -q kernel.bpf_stats_enabled=1
ncpu=$(nproc)

row() { printf '%-58s %12s %12s %12s\n' "$1" "$2" "$3" "$4"; }
# work [fp]: one deepwork per CPU for SECS; the chains they completed
work() {
	local i
	for i in $(seq "$ncpu"); do "$out/deepwork${1:+-fp}" "$SECS" & done | awk '{ s += $1 } END { print s }'
}
# runs PID: "count ns" of PID's programs so far
runs() { "$out/proginsns" -t "$1" | awk '{ c += $4; t += $5 } END { print c + 0, t + 0 }'; }
# sample TOOL HZ CONFIG [fp]: "ns-per-sample frames chains" of one row
sample() {
	local tool=$1 hz=$2 cfg=$3 fp=${4:-} pid c0 t0 c1 t1 chains i
	"$tool" -q -e "$cfg profile:hz:$hz { @[ustack] = count(); }" > "$out/o" 2> "$out/e" &
	pid=$!
	for i in $(seq 100); do	# its programs are loaded
		[[ -n $("$out/proginsns" "$pid" 2>/dev/null) ]] && break
		sleep 0.1
	done
	sleep 0.5
	read -r c0 t0 < <(runs "$pid")
	chains=$(work $fp)
	read -r c1 t1 < <(runs "$pid")
	kill -INT "$pid"
	for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; (( i % 10 == 0 )) && kill -INT "$pid"; sleep 0.1; done
	wait "$pid" 2>/dev/null
	awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v chains="$chains" '
		/^@\[/ { n = 0; next }
		/^\]: [0-9]+$/ { f += n * $2; s += $2; next }
		/^ +[^ ]/ { n++ }
		END { printf "%s %s %s\n", c ? int(t / c + 0.5) : "-", s ? sprintf("%.1f", f / s) : "-", chains }' "$out/o"
}

base=$(work)
base_fp=$(work fp)
row "stacks: $ncpu deepwork, chains in $SECS s without a tool" "$base" "$base_fp" "$base_fp"
row "profile:hz:N { @[ustack] = count(); }" "sonde CFI" "sonde FP" "bpftrace"
row "  (the load built)" "no FP" "with FP" "with FP"
for hz in 99 999; do
	read -r s_ns s_fr s_ch < <(sample "$SONDE" $hz "")
	read -r f_ns f_fr f_ch < <(sample "$SONDE" $hz "config = { dwarf_unwind = false }" fp)
	b_ns=- b_fr=- b_ch=-
	[[ -n $BPFTRACE ]] && read -r b_ns b_fr b_ch < <(sample "$BPFTRACE" $hz "" fp)
	lost() { [[ $1 == - ]] && echo - || awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%\n", (1 - a / b) * 100 }'; }
	row "  ${hz} Hz: ns per sample (program run time)" "$s_ns" "$f_ns" "$b_ns"
	row "  ${hz} Hz: frames per stack, mean" "$s_fr" "$f_fr" "$b_fr"
	row "  ${hz} Hz: work lost" "$(lost "$s_ch" "$base")" "$(lost "$f_ch" "$base_fp")" "$(lost "$b_ch" "$base_fp")"
done
