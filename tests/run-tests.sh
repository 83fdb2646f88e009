#!/bin/bash
# run-tests.sh - run sonde's tests; see the "Tests" section of README.md.
#
# usage: tests/run-tests.sh [-v] [--unit|--host] [PATTERN...]
#   -v        also print "PASS name" and "SKIP name" lines
#   --unit    only the no-root tier (unit binaries, layout, ast, codegen,
#             errors, broken)
#   --host    the no-root and root tiers, not the guest tier
#   PATTERN   only tests whose path contains one of the PATTERNs
# Run from the repository root.  Environment:
#   SONDE              binary under test (default ./sonde)
#   SONDE_UNIT_DIR     where the unit test binaries are (default build/tests)
#   SONDE_REQUIRE_BPF  1: root-tier tests fail, not skip, without BPF,
#                      and guest-tier ones without qemu (tools/vm-run)
#   SONDE_PROGS        the built trigger programs, tests/progs/*.c
#                      (default build/progs; "make progs" builds them)
#   SONDE_OBJ_DIR      the objects of src/ (default build/obj), whose
#                      calls tests/layout checks
#   SONDE_BROKEN_SECS  seconds a broken script may take to fail (default
#                      1; .ci/run's sanitizer build gives 4)
# The last line is always "N passed, N failed" (", N skipped" when some
# were skipped); the exit status is 1 if any test failed.

set -u
export LC_ALL=C

verbose=0
unit_only=0
host_only=0
patterns=()
for arg in "$@"; do
	case $arg in
	-v) verbose=1 ;;
	--unit) unit_only=1 ;;
	--host) host_only=1 ;;
	-h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "run-tests.sh: unknown option $arg" >&2; exit 2 ;;
	*) patterns+=("$arg") ;;
	esac
done

root=$(pwd)
if [[ ! -d tests ]]; then
	echo "run-tests.sh: run me from the repository root" >&2
	exit 2
fi

# Tests run inside their own directory, so SONDE must be absolute.
SONDE=${SONDE:-./sonde}
if [[ $SONDE == */* ]]; then
	d=$(cd "$(dirname "$SONDE")" 2>/dev/null && pwd) && SONDE=$d/$(basename "$SONDE")
else
	SONDE=$(command -v "$SONDE" || echo "$SONDE")
fi
export SONDE SONDE_ROOT=$root
# The tests written before issue 17 check bpftrace 0.17's behaviour
# (the body of 0.17 scripts is judged with the switch on); a test of
# today's bpftrace says --dialect=0.26, which wins over the environment.
export SONDE_DIALECT=${SONDE_DIALECT:-0.17}
export SONDE_PROGS=${SONDE_PROGS:-$root/build/progs}
unit_dir=${SONDE_UNIT_DIR:-build/tests}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sonde-tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/stdout
err=$tmp/stderr

npass=0 nfail=0 nskip=0
shopt -s nullglob

selected() {
	local p
	(( ${#patterns[@]} == 0 )) && return 0
	for p in "${patterns[@]}"; do
		[[ $1 == *"$p"* ]] && return 0
	done
	return 1
}

pass() {
	npass=$((npass + 1))
	(( verbose )) && echo "PASS $1"
	return 0
}

skip() {
	nskip=$((nskip + 1))
	(( verbose )) && echo "SKIP $1 ($2)"
	return 0
}

# fail NAME REASON [FILE]: FILE (a diff, stderr, ...) is shown indented.
fail() {
	nfail=$((nfail + 1))
	echo "FAIL $1: $2"
	if [[ -n ${3-} && -s $3 ]]; then
		head -n 40 "$3" | sed 's/^/    /'
		local n
		n=$(wc -l < "$3")
		(( n > 40 )) && echo "    ... ($((n - 40)) more lines)"
	fi
	return 0
}

# What an unexpected exit status means, for messages.
status_text() {
	case $1 in
	124) echo "timed out after $2 s" ;;
	126|127) echo "could not run (exit $1)" ;;
	1[3-9][0-9]|2[0-5][0-9]) echo "crashed (exit $1, signal $(($1 - 128)))" ;;
	*) echo "exit $1" ;;
	esac
}

# run SECONDS DIR CMD...: run CMD in DIR, stdout to $out, stderr to $err.
# The subshell reaps CMD, so bash's "Segmentation fault" notice about a
# crash goes to /dev/null, not to our output; status_text reports it.
run() {
	local secs=$1 dir=$2
	shift 2
	(
		cd "$dir" || exit 126
		timeout -k 5 "$secs" "$@" < /dev/null > "$out" 2> "$err"
		exit $?
	) 2> /dev/null
}

sanitizer_report() {
	grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$err"
}

# differs EXPECTED ACTUAL: 1 if equal, else 0 with the diff in $tmp/diff.
differs() {
	! diff -u --label "expected $(basename "$1")" --label actual "$1" "$2" \
		> "$tmp/diff" 2>&1
}

# Unit test binaries: pass iff exit 0; their own output on failure.
for src in tests/unit/test_*.c; do
	name=$(basename "$src" .c)
	selected "$src" || continue
	bin=$unit_dir/$name
	if [[ ! -x $bin ]]; then
		fail "$src" "$bin not built (run make check-unit)"
		continue
	fi
	run 60 "$root" "$bin"
	st=$?
	cat "$err" >> "$out"
	if (( st != 0 )); then
		fail "$src" "$(status_text $st 60)" "$out"
	else
		pass "$src"
	fi
done

# The shape of src/ (tools/check-layout: layers, no circles, sizes),
# over the objects make built, and over made-up trees that break it.
for t in tests/layout/*.sh; do
	selected "$t" || continue
	run 60 "$root" "$t" "${SONDE_OBJ_DIR:-build/obj}"
	st=$?
	cat "$err" >> "$out"
	if (( st != 0 )); then
		fail "$t" "$(status_text $st 60)" "$out"
	else
		pass "$t"
	fi
done

# Golden dumps: DIR EXT MODE, e.g. tests/ast/x.bt against tests/ast/x.ast.
golden() {
	local dir=$1 ext=$2 mode=$3 bt base want st
	for bt in "$dir"/*.bt; do
		selected "$bt" || continue
		base=$(basename "$bt" .bt)
		want=$dir/$base.$ext
		if [[ ! -f $want ]]; then
			fail "$bt" "no expected output $want"
			continue
		fi
		run 10 "$dir" "$SONDE" --dump="$mode" "$base.bt"
		st=$?
		if (( st != 0 )); then
			fail "$bt" "$(status_text $st 10)" "$err"
		elif sanitizer_report; then
			fail "$bt" "sanitizer report" "$err"
		elif differs "$want" "$out"; then
			fail "$bt" "stdout differs from $want" "$tmp/diff"
		else
			pass "$bt"
		fi
	done
}
golden tests/ast ast ast
golden tests/codegen bpf bpf

# Error tests: NAME.E_TAG.bt must fail with error[E_TAG], located.
for bt in tests/errors/*.bt; do
	selected "$bt" || continue
	base=$(basename "$bt" .bt)
	tag=${base##*.}
	if [[ $base != *.* || ! $tag =~ ^E_[A-Z0-9_]+$ ]]; then
		fail "$bt" "name must be NAME.E_TAG.bt (E_TAG like E_SYNTAX)"
		continue
	fi
	# a first line "// sonde-args: ARGS" adds ARGS (--dialect=0.26)
	args=()
	IFS= read -r first < "$bt"
	[[ $first == "// sonde-args: "* ]] && read -ra args <<< "${first#// sonde-args: }"
	run 5 tests/errors "$SONDE" ${args[@]+"${args[@]}"} --dump=bpf "$base.bt"
	st=$?
	if sanitizer_report; then
		fail "$bt" "sanitizer report" "$err"
	elif (( st != 1 )); then
		fail "$bt" "expected exit 1, got $(status_text $st 5)" "$err"
	elif ! grep -qF "error[$tag]" "$err"; then
		fail "$bt" "stderr lacks error[$tag]" "$err"
	elif ! grep -qE '^[^:]+:[0-9]+:[0-9]+: error\[' "$err"; then
		fail "$bt" "no 'file:line:col: error[' line" "$err"
	elif [[ -f tests/errors/$base.err ]] && differs "tests/errors/$base.err" "$err"; then
		fail "$bt" "stderr differs from tests/errors/$base.err" "$tmp/diff"
	else
		pass "$bt"
	fi
done

# located FILE TAG: stderr starts with "FILE:LINE:COL: error[TAG]: ".
located() {
	local first re='^[0-9]+:[0-9]+: error\[([A-Z0-9_]+)\]: '
	IFS= read -r first < "$err" || return 1
	[[ $first == "$1:"* && ${first#"$1:"} =~ $re &&
	   ${BASH_REMATCH[1]} == "$2" ]]
}

# Broken scripts: tests/broken/NAME.E_TAG.bt, tests/broken/cut/*.E_TAG.bt
# (tests/broken/make-cuts), and tests/broken/NAME.E_TAG.sh, which prints
# a script too large or too odd to commit.  Stricter than tests/errors:
# exit 1 within 1 s (SONDE_BROKEN_SECS: more for a sanitizer build, whose
# checks make every compile slower; the 1 s promise is the product
# binary's), stderr starting with "FILE:LINE:COL: error[E_TAG]: ",
# the source line and a caret line; NAME.E_TAG.err, if any, is all of
# stderr.
broken() {
	local t=$1 dir base tag st script
	selected "$t" || return 0
	dir=$(dirname "$t")
	base=$(basename "$t")
	base=${base%.*}
	tag=${base##*.}
	if [[ $base != *.* || ! $tag =~ ^E_[A-Z0-9_]+$ ]]; then
		fail "$t" "name must be NAME.E_TAG.bt or NAME.E_TAG.sh"
		return 0
	fi
	script=$base.bt
	if [[ $t == *.sh ]]; then
		mkdir -p "$tmp/broken"
		if ! bash "$t" > "$tmp/broken/$script"; then
			fail "$t" "the generator failed"
			return 0
		fi
		dir=$tmp/broken
	fi
	run "${SONDE_BROKEN_SECS:-1}" "$dir" "$SONDE" --dump=bpf "$script"
	st=$?
	if sanitizer_report; then
		fail "$t" "sanitizer report" "$err"
	elif (( st != 1 )); then
		fail "$t" "expected exit 1, got $(status_text $st "${SONDE_BROKEN_SECS:-1}")" "$err"
	elif ! located "$script" "$tag"; then
		fail "$t" "stderr does not start with '$script:LINE:COL: error[$tag]: '" "$err"
	elif ! sed -n 3p "$err" | grep -qE '^ *\^~*$'; then
		fail "$t" "no caret line under the source line" "$err"
	elif [[ -f ${t%.*}.err ]] && differs "${t%.*}.err" "$err"; then
		fail "$t" "stderr differs from ${t%.*}.err" "$tmp/diff"
	else
		pass "$t"
	fi
}
for t in tests/broken/*.bt tests/broken/*.sh tests/broken/cut/*.bt; do
	broken "$t"
done
rm -rf "$tmp/broken"

# D error tests: tests/d/errors/NAME.D_TAG.d must fail to compile
# (sonde dtrace -e: no probe is enabled) with DTrace's [D_TAG] under
# -x errtags, and with DTrace's line, untagged, without it (the source
# line and caret follow only at a terminal).
for t in tests/d/errors/*.d; do
	[[ -e $t ]] || continue
	selected "$t" || continue
	base=$(basename "$t" .d)
	tag=${base##*.}
	if [[ $base != *.* || ! $tag =~ ^D_[A-Z0-9_]+$ ]]; then
		fail "$t" "name must be NAME.D_TAG.d (D_TAG like D_SYNTAX)"
		continue
	fi
	run 5 tests/d/errors "$SONDE" dtrace -xerrtags -e -s "$base.d"
	st=$?
	if sanitizer_report; then
		fail "$t" "sanitizer report" "$err"
	elif (( st != 1 )); then
		fail "$t" "expected exit 1, got $(status_text $st 5)" "$err"
	elif ! grep -qE "^dtrace: failed to compile script $base.d: \[$tag\] " "$err"; then
		fail "$t" "stderr lacks 'dtrace: failed to compile script $base.d: [$tag] '" "$err"
	elif ! run 5 tests/d/errors "$SONDE" dtrace -e -s "$base.d" &&
	     ! grep -qE "^dtrace: failed to compile script $base.d: (line [0-9]+: )?[^[]" "$err"; then
		fail "$t" "without -x errtags, stderr lacks 'dtrace: failed to compile script $base.d: line N: '" "$err"
	else
		pass "$t"
	fi
done

# A NAME.bt beside NAME.sh and without NAME.out is that script's input.
root_tests=()
if (( ! unit_only )); then
	for t in tests/run/*.bt tests/run/*.sh tests/d/*.d; do
		selected "$t" || continue
		base=${t%.*}
		[[ $t == *.bt && ! -f $base.out && -f $base.sh ]] && continue
		root_tests+=("$t")
	done
fi

# Root tier: needs uid 0 and a sonde that says "bpf: yes"; decided once.
bpf_ok=0
why=
if (( ${#root_tests[@]} > 0 )); then
	if (( EUID != 0 )); then
		why="not root"
	elif ! run 10 "$root" "$SONDE" --info; then
		why="$SONDE --info failed"
	elif ! grep -qx 'bpf: yes' "$out"; then
		why="$SONDE --info does not say 'bpf: yes'"
	else
		bpf_ok=1
	fi
	if (( ! bpf_ok )) && [[ ${SONDE_REQUIRE_BPF-} != 1 ]]; then
		echo "SKIP root tier: $why"
	fi
fi

# A D test: tests/d/NAME.d run by sonde dtrace -s with _DTRACE_TESTING
# set and TZ=UTC (NAME.args: more arguments), stdout exactly tests/d/NAME.out, stderr NAME.stderr if
# there is one, exit status NAME.status (default 0).
d_test() {
	local t=$1 base=$2 args=() want_st=0 st
	if [[ ! -f tests/d/$base.out ]]; then
		fail "$t" "no expected output tests/d/$base.out"
		return
	fi
	[[ -f tests/d/$base.args ]] && read -r -d '' -a args < "tests/d/$base.args"
	[[ -f tests/d/$base.status ]] && want_st=$(tr -d ' \n' < "tests/d/$base.status")
	# as dtrace-utils runs its tests: the CPU and ID columns dropped
	run 30 tests/d env _DTRACE_TESTING=t TZ=UTC "$SONDE" dtrace ${args[@]+"${args[@]}"} -s "$base.d"
	st=$?
	if sanitizer_report; then
		fail "$t" "sanitizer report" "$err"
	elif [[ $st != "$want_st" ]]; then
		fail "$t" "expected exit $want_st, got $(status_text $st 30)" "$err"
	elif differs "tests/d/$base.out" "$out"; then
		fail "$t" "stdout differs from tests/d/$base.out" "$tmp/diff"
	elif [[ -f tests/d/$base.stderr ]] && differs "tests/d/$base.stderr" "$err"; then
		fail "$t" "stderr differs from tests/d/$base.stderr" "$tmp/diff"
	else
		pass "$t"
	fi
}

for t in "${root_tests[@]}"; do
	base=$(basename "$t")
	base=${base%.*}
	if [[ $t == *.bt && ! -f tests/run/$base.out ]]; then
		fail "$t" "no expected output tests/run/$base.out"
		continue
	fi
	if (( ! bpf_ok )); then
		if [[ ${SONDE_REQUIRE_BPF-} == 1 ]]; then
			fail "$t" "BPF unavailable and SONDE_REQUIRE_BPF=1 ($why)"
		else
			skip "$t" "$why"
		fi
		continue
	fi
	if [[ $t == *.sh ]]; then
		if [[ ! -x $t ]]; then
			fail "$t" "not executable (chmod +x)"
			continue
		fi
		# NAME.timeout: seconds, for a test that may first have
		# to build what it needs (the guest kernel's cache)
		secs=60
		[[ -f tests/run/$base.timeout ]] && secs=$(tr -d ' \n' < "tests/run/$base.timeout")
		run "$secs" tests/run "./$base.sh"
		st=$?
		cat "$err" >> "$out"
		case $st in
		0) pass "$t" ;;
		77) skip "$t" "$(tail -n 1 "$out")" ;;
		*) fail "$t" "$(status_text $st "$secs")" "$out" ;;
		esac
		continue
	fi
	if [[ $t == tests/d/*.d ]]; then
		d_test "$t" "$base"
		continue
	fi
	# NAME.args: words (split on blanks and newlines, no globbing).
	args=()
	[[ -f tests/run/$base.args ]] && read -r -d '' -a args < "tests/run/$base.args"
	want_st=0
	[[ -f tests/run/$base.status ]] && want_st=$(tr -d ' \n' < "tests/run/$base.status")
	run 30 tests/run "$SONDE" "$base.bt" "${args[@]}"
	st=$?
	if sanitizer_report; then
		fail "$t" "sanitizer report" "$err"
	elif [[ $st != "$want_st" ]]; then
		fail "$t" "expected exit $want_st, got $(status_text $st 30)" "$err"
	elif differs "tests/run/$base.out" "$out"; then
		fail "$t" "stdout differs from tests/run/$base.out" "$tmp/diff"
	elif [[ -f tests/run/$base.stderr ]] && differs "tests/run/$base.stderr" "$err"; then
		fail "$t" "stderr differs from tests/run/$base.stderr" "$tmp/diff"
	else
		pass "$t"
	fi
done

# Guest tier: tests/guest/NAME.sh run by tests/guest/run in a Debian
# kernel under qemu (tools/vm-run, docs/guest.md); its PASS, FAIL and
# SKIP lines count here.  A test runs in the kernels its "# kernels:"
# line names (6.1 without one: 6.1, 6.12, 7); those of 6.12 count as
# NAME.sh@6.12.
# Skipped without qemu-system-x86_64, failed instead when
# SONDE_REQUIRE_BPF=1.
guest_tests=()
if (( ! unit_only && ! host_only )); then
	for t in tests/guest/*.sh; do
		selected "$t" && guest_tests+=("${t##*/}")
	done
fi

# guest_kernels TEST: the kernels it runs in.
guest_kernels() {
	local k
	k=$(sed -n '1,5s/^# kernels: *//p' "tests/guest/$1" | head -n 1)
	echo "${k:-6.1}"
}

# guest_tier KERNEL TEST...: the tests in that kernel.
guest_tier() {
	local kernel=$1 tag= st ran=0 infail=0 line
	shift
	[[ $kernel == 6.1 ]] || tag=@$kernel
	# the guest's time grows with its tests (about 10 s each under
	# emulation), past vm-run's own default
	VM_TIMEOUT=${VM_TIMEOUT:-$((120 + 15 * $#))} \
	tools/vm-run -k "$kernel" tests/guest/run "$@" < /dev/null \
		> "$out" 2> "$err"
	st=$?
	while IFS= read -r line; do
		case $line in
		"PASS "*) ran=$((ran + 1)); infail=0
			line=${line#PASS }
			pass "${line%% *}$tag ${line#* }" ;;
		"SKIP "*) ran=$((ran + 1)); infail=0; nskip=$((nskip + 1))
			(( verbose )) && echo "$line" ;;
		"FAIL "*) ran=$((ran + 1)); infail=1; nfail=$((nfail + 1))
			line=${line#FAIL }
			echo "FAIL ${line%%:*}$tag:${line#*:}" ;;
		"    "*) (( infail )) && echo "$line" ;;
		*) infail=0 ;;
		esac
	done < "$out"
	if (( ran < $# )); then
		fail "tests/guest$tag" "tools/vm-run exit $st after $ran of $# tests" "$err"
	fi
	(( verbose )) && grep '^vm-run: ' "$err"
}

if (( ${#guest_tests[@]} > 0 )); then
	if ! command -v qemu-system-x86_64 > /dev/null; then
		why="qemu-system-x86_64 is not installed"
		[[ ${SONDE_REQUIRE_BPF-} != 1 ]] && echo "SKIP guest tier: $why"
		for t in "${guest_tests[@]}"; do
			if [[ ${SONDE_REQUIRE_BPF-} == 1 ]]; then
				fail "tests/guest/$t" "$why and SONDE_REQUIRE_BPF=1"
			else
				skip "tests/guest/$t" "$why"
			fi
		done
	else
		for kernel in 6.1 6.12 7; do
			ktests=()
			for t in "${guest_tests[@]}"; do
				[[ " $(guest_kernels "$t") " == *" $kernel "* ]] && ktests+=("$t")
			done
			(( ${#ktests[@]} > 0 )) && guest_tier "$kernel" "${ktests[@]}"
		done
	fi
fi

summary="$npass passed, $nfail failed"
(( nskip > 0 )) && summary+=", $nskip skipped"
echo "$summary"
(( nfail == 0 ))
