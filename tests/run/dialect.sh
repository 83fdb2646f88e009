#!/bin/bash
# The dialect switch (docs/language.md "bpftrace 0.17 and today"):
# where today's bpftrace and 0.17 differ, sonde follows today's unless
# --dialect=0.17 or SONDE_DIALECT=0.17 says otherwise (the option wins).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1

# Today's: "Attached N probes" on stderr once attached, and a script of
# only begin and end probes ends by itself after begin.
timeout 10 "$SONDE" --dialect=0.26 -e 'begin { printf("b\n"); @x = 1; } end { printf("e\n"); }' > out 2> err
[[ $? == 0 ]] || die "0.26: begin and end only did not end by itself: $(cat err)"
expect "b
e


@x: 1"
[[ $(cat err) == "Attached 2 probes" ]] || die "0.26 stderr: $(cat err)"
SONDE_DIALECT=0.17 timeout 10 "$SONDE" --dialect=0.26 -e 'BEGIN { printf("b\n"); }' > out 2> err ||
	die "the option does not win over SONDE_DIALECT"
[[ $(cat err) == "Attached 1 probe" ]] || die "0.26 stderr, one probe: $(cat err)"
SONDE_DIALECT=0.26 "$SONDE" -q -e 'BEGIN { printf("b\n"); }' > out 2> err || die "-q: $(cat err)"
[[ ! -s err ]] || die "-q still said: $(cat err)"

# 0.17's: "Attaching N probes..." on the output, and BEGIN alone waits
# for Ctrl-C (timeout's SIGTERM here: status 124).
timeout 2 "$SONDE" --dialect=0.17 -e 'BEGIN { printf("b\n"); }' > out 2> err
[[ $? == 124 ]] || die "0.17: BEGIN alone ended by itself"
expect "Attaching 1 probe...
b

"
stderr_clean

# JSON: today's attached_probes and lost_events carry a count too.
"$SONDE" --dialect=0.26 -f json -e 'BEGIN { exit(); }' > out 2> err || die "json: $(cat err)"
expect '{"type": "attached_probes", "count": 1, "data": {"probes": 1}}'
"$SONDE" --dialect=0.17 -f json -e 'BEGIN { exit(); }' > out 2> err || die "json 0.17: $(cat err)"
expect '{"type": "attached_probes", "data": {"probes": 1}}'

# Bare pid and tid are the ids in sonde's pid namespace (pid(curr_ns))
# today, in the initial one in 0.17; sonde is pid 1 of a new namespace.
if unshare -p -f true 2>/dev/null; then
	unshare -p -f "$SONDE" --dialect=0.26 -e 'begin { printf("%d %d %d\n", pid, tid, pid(init) > 1); }' > out 2> err ||
		die "pid namespace: $(cat err)"
	expect "1 1 1

"
	unshare -p -f "$SONDE" --dialect=0.17 -q -e 'BEGIN { printf("%d\n", pid > 1); exit(); }' > out 2> err ||
		die "pid namespace, 0.17: $(cat err)"
	expect "1

"
fi

# Bare nsecs is nsecs(boot) today, nsecs(monotonic) in 0.17.
"$SONDE" --dialect=0.26 --dump=bpf -e 'begin { @t = nsecs; }' > out 2> err || die "dump: $(cat err)"
grep -q ktime_get_boot_ns out || die "0.26 nsecs is not the boot clock: $(cat out)"
"$SONDE" --dialect=0.17 --dump=bpf -e 'BEGIN { @t = nsecs; }' > out 2> err || die "dump 0.17: $(cat err)"
grep -q ktime_get_boot_ns out && die "0.17 nsecs is the boot clock"
grep -q ktime_get_ns out || die "0.17 nsecs: $(cat out)"

# --dry-run: today's attaches every probe, then leaves before BEGIN;
# 0.17's (which bpftrace 0.17 lacked) only loads.
"$SONDE" --dialect=0.26 --dry-run -e 'BEGIN { printf("b\n"); } tracepoint:syscalls:sys_enter_getpid { }' > out 2> err ||
	die "dry run: $(cat err)"
[[ ! -s out && $(cat err) == "Attached 2 probes" ]] || die "dry run said: $(cat out err)"
"$SONDE" --dialect=0.17 --dry-run -e 'BEGIN { printf("b\n"); } tracepoint:syscalls:sys_enter_getpid { }' > out 2> err ||
	die "dry run 0.17: $(cat err)"
[[ ! -s out && ! -s err ]] || die "dry run 0.17 said: $(cat out err)"

# Today's strings hold 1024 bytes, 0.17's 64; the environment wins;
# today's printf says a string was cut short with "..", 0.17's does not.
long=$(printf '%0100d' 7)
"$SONDE" -q --dialect=0.26 -e "begin { printf(\"%s\\n\", str(\"$long\")); }" > out 2> err || die "strlen: $(cat err)"
expect "$long

"
"$SONDE" -q --dialect=0.17 -e "BEGIN { printf(\"%s\\n\", str(\"$long\")); exit(); }" > out 2> err || die "strlen 0.17: $(cat err)"
expect "${long:0:63}

"
BPFTRACE_MAX_STRLEN=10 "$SONDE" -q --dialect=0.26 -e "begin { printf(\"%s\\n\", str(\"$long\")); }" > out 2> err ||
	die "strlen env: $(cat err)"
expect "${long:0:9}..

"

# Today's probe names: begin and end in lower case, a software event
# as written; 0.17's: BEGIN, END, the event's full name.
"$SONDE" -q --dialect=0.26 -e 'BEGIN { printf("%s-", probe); } end { printf("%s\n", probe); }' > out 2> err || die "names: $(cat err)"
expect "begin-end

"
"$SONDE" -q --dialect=0.17 -e 'begin { printf("%s-", probe); exit(); } END { printf("%s\n", probe); }' > out 2> err || die "names 0.17: $(cat err)"
expect "BEGIN-END

"
"$SONDE" -q --dialect=0.26 -e 'software:cpu:1e5 { printf("%s\n", probe); exit(); }' > out 2> err || die "software: $(cat err)"
[[ $(head -1 out) == "software:cpu:100000" ]] || die "software: $(cat out)"
"$SONDE" -q --dialect=0.17 -e 'software:cpu:100000 { printf("%s\n", probe); exit(); }' > out 2> err || die "software 0.17: $(cat err)"
[[ $(head -1 out) == "software:cpu-clock:100000" ]] || die "software 0.17: $(cat out)"

# A histogram's heading: no blank after the colon today, one in 0.17.
"$SONDE" -q --dialect=0.26 -e 'begin { @h = hist(5); }' > out 2> err || die "hist: $(cat err)"
grep -qx '@h:' out || die "hist heading: $(cat -A out)"
"$SONDE" -q --dialect=0.17 -e 'BEGIN { @h = hist(5); exit(); }' > out 2> err || die "hist 0.17: $(cat err)"
grep -qx '@h: ' out || die "hist heading 0.17: $(cat -A out)"

# A map that fills up: today's warning names it as bpftrace 0.26 does,
# also when the script ends before the periodic check.
"$SONDE" -q --dialect=0.26 -e 'let @a = hash(1); begin { @a[0] = 0; @a[1] = 1; }' > out 2> err || die "full: $(cat err)"
grep -qx "sonde: WARNING: Map full; can't update element of @a (1 keys; new keys are dropped: raise its declared size)" err ||
	die "full map warning: $(cat err)"

# A dialect sonde does not know
"$SONDE" --dialect=0.5 -e 'BEGIN { }' > out 2> err && die "--dialect=0.5 accepted"
[[ $(cat err) == "sonde: --dialect=0.5: the dialects are 0.17 and 0.26" ]] || die "bad dialect: $(cat err)"
SONDE_DIALECT=new "$SONDE" -e 'BEGIN { }' > out 2> err && die "SONDE_DIALECT=new accepted"
[[ $(cat err) == "sonde: SONDE_DIALECT=new: the dialects are 0.17 and 0.26" ]] || die "bad env: $(cat err)"
echo ok
