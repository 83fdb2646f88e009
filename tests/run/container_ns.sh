#!/bin/bash
# A process in new mount and pid namespaces (unshare), as a container's:
#   - by -p, with a file only its namespace has: the program is copied
#     into a tmpfs mounted privately inside the namespace, so the path
#     means nothing in sonde's; the uprobe's path is resolved in the
#     process's own root (/proc/PID/root), and its user stack is
#     symbolized from the files it really maps (/proc/PID/map_files),
#     walked by their CFI;
#   - by host path: the program run from the host's path inside the
#     namespaces, traced system-wide by that path;
#   - pid is the host's pid, pid(init) too: the process's own pid in its
#     namespace is 2 (sh is its init), not what sonde prints.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
command -v unshare > /dev/null || { echo "no unshare"; exit 77; }
cd "$work" || exit 1
mkdir priv || exit 1
ns_pid=
ns_cleanup() { [[ -n $ns_pid ]] && kill -KILL "$ns_pid" 2>/dev/null; wait 2>/dev/null; trace_cleanup; }
trap ns_cleanup EXIT
# start_ns PROGRAM-PATH SETUP: run "PROGRAM wait 5" in new mount and
# pid namespaces after SETUP (shell commands); its host pid in $pid
start_ns() {
	: > trig.out
	unshare -m -p -f --mount-proc --propagation private \
		sh -c "$2 $1 wait 5" > trig.out 2>&1 &
	ns_pid=$!
	wait_for trig.out '^waiting$' || die "no start in the namespace: $(cat trig.out)"
	pid=$(pgrep -n -f "^$1 wait 5")
	[[ -n $pid ]] || die "no pid of $1"
}
go_ns() {
	kill -USR1 "$pid" || die "signal"
	wait "$ns_pid" || die "the namespace's program failed: $(cat trig.out)"
	ns_pid=
}

# -p, a file of the namespace's own
start_ns "$work/priv/ds" "mount -t tmpfs none '$work/priv' && cp '$PROGS/deepstack' '$work/priv/ds' &&"
[[ -e $work/priv/ds ]] && die "the private mount is visible outside"
tracer_start "$SONDE" ${DEBUG_V:-} -p "$pid" -e "BEGIN { printf(\"ready\\n\"); }
uprobe:$work/priv/ds:leaf { @[ustack(4)] = count(); @p[pid, pid(init)] = count(); }"
go_ns
tracer_stop
stderr_clean
got=$(sed -nE 's/^    ([a-z0-9_]+)\+[0-9]+$/\1/p' "$work/out" | tr '\n' ' ')
[[ $got == "leaf d0 d1 d2 " ]] || die "-p: frames $got: $(cat "$work/out")"
grep -q "^\]: 5$" "$work/out" || die "-p: not 5 calls: $(cat "$work/out")"
grep -q "^@p\[$pid, $pid\]: 5$" "$work/out" || die "-p: pids: $(cat "$work/out")"

# by the host's path, system-wide
start_ns "$PROGS/deepstack" ""
tracer_start "$SONDE" -e "BEGIN { printf(\"ready\\n\"); }
uprobe:$PROGS/deepstack:leaf /pid == $pid/ { @[ustack(4)] = count(); }"
go_ns
tracer_stop
stderr_clean
got=$(sed -nE 's/^    ([a-z0-9_]+)\+[0-9]+$/\1/p' "$work/out" | tr '\n' ' ')
[[ $got == "leaf d0 d1 d2 " ]] || die "host path: frames $got: $(cat "$work/out")"
echo ok
