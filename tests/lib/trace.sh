# trace.sh - helpers for root-tier tests that trace a trigger program;
# source it from a tests/run/*.sh test:
#
#   . "$SONDE_ROOT/tests/lib/trace.sh"
#   trace syscalls getppid 5 -- "$SONDE" -e '
#   BEGIN { printf("ready\n"); }
#   t:syscalls:sys_enter_getppid /pid == $1/ { @ = count(); }' @TRIG@
#   expect "Attaching 2 probes...
#   ready
#
#
#   @: 5"
#   stderr_clean
#
# trace starts the trigger (tests/progs/NAME.c, built into $SONDE_PROGS
# by "make progs") blocked before it does anything, then the tracer with
# the trigger's pid in place of @TRIG@, waits until the tracer printed
# "ready" from BEGIN (sonde runs BEGIN after every probe is attached, so
# no event can be missed from then on), lets the trigger run, waits for
# it, and stops the tracer with SIGINT.  The trigger's start-up is never
# traced, and its pid is a filter that no other process can pass.
# Everything lives in $work, removed at exit; the helpers exit 1 with a
# message on any failure (77, a skip, where the machine lacks something).

set -u
export LC_ALL=C
PROGS=${SONDE_PROGS:-$SONDE_ROOT/build/progs}
work=$(mktemp -d "${TMPDIR:-/tmp}/sonde-trace.XXXXXX") || exit 1
TRIG=
TRACER=
trace_cleanup() {
	[[ -n $TRIG ]] && kill -KILL "$TRIG" 2>/dev/null
	[[ -n $TRACER ]] && kill -KILL "$TRACER" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap trace_cleanup EXIT

die() {
	echo "$*"
	exit 1
}

# prog NAME: exit 1 unless trigger program NAME is built.
prog() {
	[[ -x $PROGS/$1 ]] || die "$PROGS/$1 not built (run make progs)"
}

# wait_for FILE PATTERN: poll (20 s at most: a loaded 2-core machine
# has taken over 10 s to start a tracer) until a line of FILE matches
# the extended regex PATTERN.
wait_for() {
	local i
	for ((i = 0; i < 400; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# trigger_start NAME ARG...: start trigger NAME blocked ("wait" first);
# its pid is $TRIG.  Its stdout and stderr go to $work/trig.out.  With
# $TRIG_COMM set, it runs through a symlink of that name, which is then
# its comm: a name no other process has, for scripts that filter on comm.
trigger_start() {
	local p=$PROGS/$1
	prog "$1"
	shift
	if [[ -n ${TRIG_COMM-} ]]; then
		ln -sf "$p" "$work/$TRIG_COMM" || exit 1
		p=$work/$TRIG_COMM
	fi
	: > "$work/trig.out"
	"$p" wait "$@" > "$work/trig.out" 2>&1 &
	TRIG=$!
	wait_for "$work/trig.out" '^waiting$' ||
		die "trigger $p did not start: $(cat "$work/trig.out")"
}

# trigger_go: let the trigger run and wait for it; it must exit 0.
trigger_go() {
	local rc
	kill -USR1 "$TRIG" || die "trigger $TRIG is gone"
	wait "$TRIG"
	rc=$?
	TRIG=
	(( rc == 0 )) || die "trigger exited $rc: $(cat "$work/trig.out")"
}

# tracer_start CMD...: start the tracer with stdout in $work/out and
# stderr in $work/err, and wait until it has printed "ready".
tracer_start() {
	# emptied here, not by the child's redirection: that could come
	# after wait_for saw the last run's "ready", and the SIGINT before
	# the tracer has its handler (a background job starts with SIGINT
	# ignored) would be lost
	: > "$work/out"
	"$@" > "$work/out" 2> "$work/err" &
	TRACER=$!
	if ! wait_for "$work/out" '^ready$'; then
		kill -KILL "$TRACER" 2>/dev/null
		wait "$TRACER" 2>/dev/null
		TRACER=
		echo "tracer did not get ready; stdout:"
		cat "$work/out"
		echo "stderr:"
		cat "$work/err"
		exit 1
	fi
}

# tracer_stop: SIGINT the tracer and wait; it must exit 0 within 30 s
# (a tracer that ignores the signal fails here, saying which one, rather
# than the whole test timing out without a word).
tracer_stop() {
	local rc i
	kill -INT "$TRACER"
	for (( i = 0; i < 300; i++ )); do
		kill -0 "$TRACER" 2>/dev/null || break
		# bpftrace 0.17 (the reference) now and then catches the
		# SIGINT and goes on polling; sonde gets no second chance
		(( i == 100 )) && [[ $(ps -o comm= -p "$TRACER") == bpftrace ]] &&
			kill -INT "$TRACER"
		sleep 0.1
	done
	if kill -0 "$TRACER" 2>/dev/null; then
		echo "tracer $(ps -o args= -p "$TRACER" | cut -c1-60) did not exit 30 s after SIGINT"
		grep -E '^Sig(Ign|Cgt)|^State' "/proc/$TRACER/status"
		kill -KILL "$TRACER"
		wait "$TRACER"
		TRACER=
		echo "stdout:"; cat "$work/out"
		echo "stderr:"; cat "$work/err"
		exit 1
	fi
	wait "$TRACER"
	rc=$?
	TRACER=
	if (( rc != 0 )); then
		echo "tracer exited $rc; stderr:"
		cat "$work/err"
		exit 1
	fi
}

# trace TRIGGER-ARGS -- TRACER-CMD...: the whole dance; "@TRIG@" in the
# tracer's command is replaced by the trigger's pid.  $SETTLE seconds
# (default 0) pass between the trigger's exit and the SIGINT.
trace() {
	local targs=() cmd=() a
	while (( $# )) && [[ $1 != -- ]]; do targs+=("$1"); shift; done
	shift
	trigger_start "${targs[@]}"
	for a in "$@"; do cmd+=("${a//@TRIG@/$TRIG}"); done
	tracer_start "${cmd[@]}"
	trigger_go
	sleep "${SETTLE:-0}"
	tracer_stop
}

# compare_bpftrace FILTER TRIGGER-ARGS -- SCRIPT ARG...: run SCRIPT
# (with "@TRIG@" among its ARGs) through sonde and through bpftrace with
# the same trigger, pass both outputs through the shell command FILTER
# (to hide the values that depend on timing; "cat" for none) and
# require them to be equal.  The filtered outputs stay in $work/sonde
# and $work/bpftrace, the raw ones in $work/sonde.raw and
# $work/bpftrace.raw.  Skips (77) without bpftrace.  bpftrace reads
# printf() output from a perf buffer that it does not drain on SIGINT,
# so both tracers get SETTLE=0.3 s to print.
compare_bpftrace() {
	local filter=$1 targs=() t
	shift
	while (( $# )) && [[ $1 != -- ]]; do targs+=("$1"); shift; done
	shift
	have_bpftrace || { echo "bpftrace is not installed"; exit 77; }
	for t in sonde bpftrace; do
		if [[ $t == sonde ]]; then
			SETTLE=0.3 trace "${targs[@]}" -- "$SONDE" -e "$@"
		else
			SETTLE=0.3 trace "${targs[@]}" -- bpftrace -e "$@"
		fi
		sed -i '/RLIMIT_MEMLOCK/d' "$work/err"
		[[ -s $work/err ]] && die "$t wrote to stderr: $(cat "$work/err")"
		cp "$work/out" "$work/$t.raw"
		eval "$filter" < "$work/out" > "$work/$t" || die "filter failed: $filter"
	done
	if ! diff -u --label sonde --label bpftrace "$work/sonde" "$work/bpftrace" > "$work/diff"; then
		echo "sonde's output differs from bpftrace's (after $filter):"
		cat "$work/diff"
		exit 1
	fi
}

# expect WANT [FILE]: FILE (default $work/out) must be exactly WANT and
# a newline (trailing blank lines count).
expect() {
	local got
	got=$(cat "${2:-$work/out}"; echo .)
	got=${got%.}
	if [[ $got != "$1"$'\n' ]]; then
		echo "output differs (- expected, + actual):"
		diff -u <(printf '%s\n' "$1") <(printf '%s' "$got") | tail -n +3
		[[ -s $work/err ]] && { echo "stderr:"; cat "$work/err"; }
		exit 1
	fi
}

# stderr_clean: the tracer's stderr must be empty (but for the line
# "Attached N probes").  (SONDE=bpftrace
# runs a test against the reference, whose RLIMIT_MEMLOCK complaint is
# ignored.)
stderr_clean() {
	[[ ${SONDE##*/} == bpftrace ]] && sed -i '/RLIMIT_MEMLOCK/d' "$work/err"
	# today's bpftrace's status line (--dialect=0.26)
	sed -i '/^Attached [0-9]* probes\{0,1\}$/d' "$work/err"
	[[ -s $work/err ]] && die "unexpected stderr: $(cat "$work/err")"
	return 0
}

# have_bpftrace: true if the reference bpftrace runs here.
have_bpftrace() {
	command -v bpftrace > /dev/null
}

# The syscall numbers the tests use, for the raw ones (args->__syscall_nr,
# rawtracepoint:sys_enter's arg1).
case $(uname -m) in
x86_64) NR_getppid=110 NR_getpid=39 NR_exit_group=231 ;;
aarch64) NR_getppid=173 NR_getpid=172 NR_exit_group=94 ;;
*) echo "no syscall numbers for $(uname -m)"; exit 77 ;;
esac

# hist_rows: a filter that replaces each run of histogram rows by one
# line "ROWS" (each row checked for the layout), for values that depend
# on timing.
hist_rows() {
	awk '
	/^[[(]/ {
		if ($0 !~ /^(\[[0-9]+[KMGTPE]?, [0-9]+[KMGTPE]?\)|\[[0-9]+[KMGTPE]?, \.\.\.\)|\(\.\.\., [0-9]+[KMGTPE]?\)|\[[0-9]+[KMGTPE]?\]) +[0-9]+ \|@* *\|$/ || length($0) != 79) {
			print "BAD ROW: " $0; next
		}
		if (!inrows) print "ROWS"; inrows = 1; next
	}
	{ inrows = 0; print }'
}

# rejects SCRIPT MESSAGE: sonde --dialect=0.26 -e SCRIPT must fail, its
# stderr holding MESSAGE (fixed text, e.g. "error[E_TYPE]: ...").
rejects() {
	! "$SONDE" --dialect=0.26 -e "$1" > "$work/out" 2> "$work/err" ||
		die "accepted: $1"
	grep -qF -- "$2" "$work/err" || die "wrong error for $1: $(cat "$work/err")"
}
