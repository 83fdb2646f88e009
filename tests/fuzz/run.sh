#!/bin/bash
# run.sh - run each libFuzzer target for a while over its corpus:
# make fuzz-run SECONDS=N runs "tests/fuzz/run.sh N script elf format".
#
# Seeds are tests/fuzz/corpus/TARGET and tests/fuzz/regress/TARGET,
# read only; what the fuzzer adds goes to build/fuzz/corpus/TARGET, a
# finding to build/fuzz/artifacts/TARGET-*, the whole log to
# build/fuzz/TARGET.log.  Prints one line per target; exits 1 after the
# first target that found something (with the end of its log).
set -u
cd "$(dirname "$0")/../.."
secs=${1:?usage: tests/fuzz/run.sh SECONDS TARGET...}
shift
out=build/fuzz
for t in "$@"; do
	bin=$out/fuzz_$t
	if [[ ! -x $bin ]]; then
		echo "fuzz-run: $bin not built (make fuzz)" >&2
		exit 2
	fi
	mkdir -p "$out/corpus/$t" "$out/artifacts"
	args=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=10
	      -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-")
	if [[ $t == script ]]; then
		args+=(-dict="$out/script.dict")
	elif [[ -f tests/fuzz/$t.dict ]]; then
		args+=(-dict="tests/fuzz/$t.dict")
	fi
	dirs=("$out/corpus/$t")
	for d in tests/fuzz/corpus/$t tests/fuzz/regress/$t; do
		[[ -d $d ]] && dirs+=("$d")
	done
	"$bin" "${args[@]}" "${dirs[@]}" > "$out/$t.log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$t.log" | tail -n 1)
	if (( st != 0 )); then
		echo "fuzz_$t: FOUND a bug after ${runs:-?} runs (exit $st); from $out/$t.log:"
		# the report: from the sanitizer's or libFuzzer's first line
		sed -n '/^==[0-9]*==\|runtime error:\|^ERROR: libFuzzer\|^INFO: libFuzzer: \|^MS: /,$p' \
			"$out/$t.log" | head -n 60 | sed 's/^/    /'
		ls "$out"/artifacts/"$t"-* 2>/dev/null | sed 's/^/    input: /'
		exit 1
	fi
	echo "fuzz_$t: ${secs} s, ${runs:-?} runs, ${cov:-no coverage line}, nothing found"
done
