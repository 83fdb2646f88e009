#!/bin/bash
# Symbols of a stripped program from a debuginfod server: elfutils'
# debuginfod serves a directory holding the program's debug file (no
# .gnu_debuglink, nothing under /usr/lib/debug: the build id alone finds
# it).  Without DEBUGINFOD_URLS the program's own functions print as
# addresses (its .dynsym has none of them); with it, the dynamic sonde
# (libdebuginfod) and the static one (elfutils' debuginfod-find) both
# print their names, each fetching into a cache of its own.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
command -v debuginfod > /dev/null || { echo "no debuginfod (apt-get install debuginfod)"; exit 77; }
cd "$work" || exit 1
mkdir srv || exit 1
cp "$PROGS/deepstack" ds || exit 1
objcopy --only-keep-debug ds srv/ds.debug && strip -s ds || die "strip"
hex=$(readelf -n ds | awk '/Build ID:/ { print $3 }')
[[ -n $hex ]] || die "no build id"
port=$((20000 + RANDOM % 20000))
debuginfod -F -p "$port" -d db.sqlite "$work/srv" > dlog 2>&1 &
dpid=$!
trap 'kill $dpid 2>/dev/null; wait $dpid 2>/dev/null; trace_cleanup' EXIT
url=http://127.0.0.1:$port
# wait until it has indexed the directory and answers (a fresh cache
# each time: the client remembers a miss)
for i in $(seq 200); do
	rm -rf "$work/probe"
	DEBUGINFOD_CACHE_PATH=$work/probe DEBUGINFOD_URLS=$url \
		debuginfod-find debuginfo "$hex" > /dev/null 2>&1 && break
	kill -0 $dpid 2>/dev/null || die "debuginfod exited: $(cat dlog)"
	sleep 0.1
done
(( i < 200 )) || die "debuginfod does not serve $hex: $(tail -5 dlog)"
s='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack(3)] = count(); }'
unset DEBUGINFOD_URLS
"$SONDE" -q -c "./ds 2" -e "$s" > out 2> err || die "no server: $(cat err)"
grep -q '^    d0+' out && die "names without a server: $(cat out)"
run() {	# SONDE-BINARY CACHE
	DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$work/$2 "$1" -q -c "./ds 2" -e "$s" > out 2> err ||
		die "$1: $(cat err)"
	[[ $(sed -nE 's/^    ([a-z0-9_]+)\+[0-9]+$/\1/p' out | tr '\n' ' ') == "leaf d0 d1 " ]] ||
		die "$1 with $url: $(cat out; cat err)"
	[[ -n $(find "$work/$2" -name debuginfo) ]] || die "$1: nothing in its cache"
}
run "$SONDE" cache
static=$SONDE_ROOT/build/sonde-static
if [[ -x $static ]]; then
	command -v debuginfod-find > /dev/null || die "no debuginfod-find"
	run "$static" cache-static
fi
echo ok
