# lib.sh - sourced by tests/run/usdt_*.sh: a scratch directory removed
# at exit, the C compiler with include/ on the path, and exact checks.
set -u
USDT=$SONDE_ROOT/tests/usdt
command -v cc > /dev/null || { echo "no C compiler (cc)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sonde-usdt.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# build OUT SOURCE... [CFLAGS...]: cc -o OUT with -I include.
build() {
	local out=$1
	shift
	cc -I"$SONDE_ROOT/include" -o "$out" "$@" ||
		{ echo "cc -o $out $* failed"; exit 1; }
}

# same WHAT WANT GOT: exit 1 with a diff unless they are equal.
same() {
	[[ $2 == "$3" ]] && return 0
	echo "FAIL $1:"
	diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/    /'
	exit 1
}

# trace WHAT ARGS...: run sonde -q ARGS, fail the test if it fails;
# its stdout (stderr after it) in $out.
trace() {
	local what=$1
	shift
	out=$("$SONDE" -q "$@" 2>&1) || { echo "FAIL $what: sonde exit $?:"; printf '%s\n' "$out"; exit 1; }
}
