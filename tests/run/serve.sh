#!/bin/bash
# sonde serve (docs/sonde-serve.8): an unprivileged user runs scripts
# through the root service.  The same script gives the same output
# through the service and directly; the user's probes see only the
# user's processes; what the policy refuses (another user's process,
# destructive actions, kernel memory, probe kinds, each limit, files
# the user cannot read or write) is refused with a clear message; a
# killed client leaves no program, map or link in the kernel; 50
# clients at once are all served; the audit log says who did what.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog syscalls
user=sonde-test
if ! id "$user" > /dev/null 2>&1; then
	useradd -M -U -s /bin/sh "$user" || die "cannot create user $user"
fi
uid=$(id -u "$user")
# everything the user runs or reads lives in $work, readable by all
chmod 755 "$work"
cp "$SONDE" "$work/sonde"
cp "$PROGS/syscalls" "$work/syscalls"
chmod 755 "$work/sonde" "$work/syscalls"
cd "$work" || exit 1
SERVER=
cleanup() {
	[[ -n $SERVER ]] && kill -TERM "$SERVER" 2>/dev/null && wait "$SERVER"
	trace_cleanup
}
trap cleanup EXIT
: > policy
"$SONDE" serve --socket "$work/s.sock" --policy "$work/policy" \
	--audit-file "$work/audit" 2> serve.err &
SERVER=$!
for ((i = 0; i < 100; i++)); do [[ -S s.sock ]] && break; sleep 0.05; done
[[ -S s.sock ]] || die "the service did not start: $(cat serve.err)"
# as_user CMD...: CMD as the test user, through the service
as_user() {
	local q
	printf -v q '%q ' "$@"
	su "$user" -s /bin/bash -c "cd $work && ./sonde --connect $work/s.sock $q"
}
expect_out() {	# expect_out FILE TEXT
	[[ "$(cat "$1")" == "$2" ]] || die "$1: expected:
$2
got:
$(cat "$1")"
}
bpf_ids() { python3 "$SONDE_ROOT/tests/lib/bpf_ids.py" "$1"; }

# 1. the same output through the service as directly, as root
script='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @calls = count(); }
tracepoint:syscalls:sys_enter_openat /pid == cpid && str(args.filename) == "/etc/hostname"/ { printf("open %s\n", str(args.filename)); }
uprobe:./syscalls:main { printf("main of %s\n", comm); }'
cmd="./syscalls getppid 7 open /etc/hostname"
"$SONDE" -e "$script" -c "$cmd" > direct.out 2> direct.err || die "direct: $(cat direct.err)"
as_user -e "$script" -c "$cmd" > served.out 2> served.err || die "served: $(cat served.err)"
expect_out served.out "$(cat direct.out)"
# (the tests' SONDE_DIALECT=0.17 passes through: 0.17's output)
expect_out served.out 'Attaching 3 probes...
main of syscalls
open /etc/hostname


@calls: 7'
expect_out served.err ''
expect_out direct.err ''

# ... and D, through sonde dtrace, and sonde run as dtrace
d='syscall::getppid:entry /pid == $target/ { @n = count(); } END { printa("calls %@d\n", @n); }'
"$SONDE" dtrace -qn "$d" -c "./syscalls getppid 3" > d.direct 2>&1 || die "direct D: $(cat d.direct)"
as_user dtrace -qn "$d" -c "./syscalls getppid 3" > d.served 2>&1 || die "served D: $(cat d.served)"
expect_out d.served "$(cat d.direct)"
expect_out d.served 'calls 3'
ln -s sonde dtrace
su "$user" -s /bin/bash -c "cd $work && ./dtrace --connect $work/s.sock -qn 'BEGIN { printf(\"as dtrace\n\"); exit(0); }'" \
	> d.name 2>&1 || die "as dtrace: $(cat d.name)"
expect_out d.name 'as dtrace'

# 2. the user's probes see the user's processes only: root's getppid
# calls, made meanwhile, are not counted
./syscalls getppid 100000 &
rootpid=$!
as_user -e 'tracepoint:syscalls:sys_enter_getppid { @[uid] = count(); }' \
	-c "./syscalls getppid 5" > mine.out 2> mine.err || die "$(cat mine.err)"
wait "$rootpid"
expect_out mine.out "Attaching 1 probe...


@[$uid]: 5"

# the service itself is root's
su "$user" -s /bin/bash -c "$work/sonde serve --socket $work/u.sock" > u.out 2>&1 &&
	die "sonde serve ran as $user"
expect_out u.out 'sonde serve: the service runs as root (it loads BPF for its users)'

# 3. refusals, each with its reason
refused() {	# refused EXPECTED-TEXT ARG...: the session fails saying it
	local want=$1
	shift
	as_user "$@" > r.out 2> r.err && die "not refused: $*"
	grep -qF -- "$want" r.err || die "refused without '$want': $(cat r.err)"
}
refused 'sonde serve refused: --unsafe is not allowed through sonde serve for this user' \
	--unsafe -e 'BEGIN { system("id"); }'
refused 'error[E_UNSAFE]: system()' -e 'BEGIN { system("id"); }'
refused 'sonde serve refused: --metrics fd:N is not allowed through sonde serve' --metrics fd:3 -e 'BEGIN { exit(); }'
refused 'sonde serve refused: --metrics: port 80 is below 1024' --metrics 80 -e 'BEGIN { exit(); }'
refused "-p 1: the process is not user $user's to trace" -p 1 -e 'uprobe:/bin/sh:main { exit(); }'
refused 'destructive actions (-w) are not allowed through sonde serve' dtrace -qwn 'BEGIN { exit(0); }'
printf '#pragma D option destructive\nBEGIN { system("id"); exit(0); }\n' > destructive.d
refused 'destructive actions are not allowed without -w' dtrace -s destructive.d
refused "iter probes are not allowed through sonde serve for user $user" -e 'iter:task { exit(); }'
refused 'error[E_POLICY]: curtask is the kernel'"'"'s memory' -e 'BEGIN { print(curtask); }'
refused 'error[E_POLICY]: kstack() reads the kernel' -e 'BEGIN { print(kstack()); }'
refused 'reads the kernel'"'"'s memory (probe_read_kernel)' \
	-e 'tracepoint:sched:sched_switch { print(*(uint64 *)args.prev_pid); }'
refused 'cannot write /root/sonde-serve-test: Permission denied' -o /root/sonde-serve-test -e 'BEGIN { exit(); }'
refused 'cannot read /etc/shadow: Permission denied' /etc/shadow
[[ -e /root/sonde-serve-test ]] && die "-o wrote a file the user cannot write"
# the limits of policy lines
echo "user $user max_probes=2" > policy
refused "the script attaches 3 probes; sonde serve allows user $user 2 at once" -e "$script" -c "$cmd"
echo "default max_map_bytes=1K" > policy
refused "sonde serve allows user $user 1 KiB" -e 'BEGIN { @[1] = count(); exit(); }'
echo "group $user probes=BEGIN,END" > policy
refused "interval probes are not allowed through sonde serve for user $user" -e 'interval:s:1 { exit(); }'
echo "user $uid max_seconds=1" > policy
as_user -e 'interval:s:10 { exit(); } END { printf("end ran\n"); }' > t.out 2> t.err ||
	die "the time limit: $(cat t.err)"
grep -qF "sonde: the session reached its 1 seconds (sonde serve's limit for user $user)" t.err ||
	die "no time limit message: $(cat t.err)"
grep -q '^end ran$' t.out || die "END did not run at the time limit: $(cat t.out)"
# the CPU the programs take in the kernel (BPF run-time statistics)
echo "user $user max_kernel_cpu=2" > policy
as_user -e 'tracepoint:syscalls:sys_enter_getppid { $i = 0; while ($i < 2000) { $i++; } @ = count(); }' \
	-c './syscalls getppid 100000000' > cpu.out 2> cpu.err || die "the CPU limit: $(cat cpu.err)"
grep -qE "^sonde: the session's programs took [0-9]+% of a CPU in the kernel over [0-9] s \(sonde serve's limit for user $user is 2%\)$" cpu.err ||
	die "no CPU limit message: $(cat cpu.err)"
echo "user $user max_sessions=1" > policy
as_user -e 'BEGIN { @n = 7; } interval:s:30 { exit(); } END { printf("end %d\n", @n); }' > s1.out 2>&1 &
first=$!
wait_for s1.out 'Attach' || die "first session did not start: $(cat s1.out)"
refused "user $user has 1 sessions already (sonde serve's limit)" -e 'BEGIN { exit(); }'
echo "garbage line" > policy
refused "the service's policy file is broken" -e 'BEGIN { exit(); }'
: > policy
# Ctrl-C on the client stops the session as it stops sonde: END runs,
# the maps print, exit status 0
pkill -INT -u "$user" -f 'sonde --connect' || die "no client to stop"
wait "$first" || die "the interrupted session failed: $(cat s1.out)"
expect_out s1.out 'Attaching 3 probes...
end 7


@n: 7'

# 4. a killed client: its session, programs, maps and links are gone
# within a second
as_user -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); } interval:s:60 { exit(); }' \
	> k.out 2>&1 &
killed=$!
wait_for k.out 'Attach' || die "no session to kill: $(cat k.out)"
# what the session process holds, by id, from its fdinfo
session=$(pgrep -n -P "$SERVER")
[[ -n $session ]] || die "no session process"
held() { cat /proc/"$session"/fdinfo/* 2>/dev/null | sed -n "s/^$1:[[:space:]]*//p" | sort -u; }
progs=$(held prog_id) maps=$(held map_id) links=$(held link_id)
[[ -n $progs && -n $maps && -n $links ]] || die "the session holds no program, map or link"
pkill -KILL -u "$user" -f 'sonde --connect' || die "no client to kill"
left() {	# ids of $1 (progs, maps, links) still in the kernel
	comm -12 <(bpf_ids "$1" | sort -u) <(printf '%s\n' "$2" | sort -u) | grep -c .
}
for ((i = 0; i < 20; i++)); do
	(( $(left progs "$progs") + $(left maps "$maps") + $(left links "$links") == 0 )) && break
	sleep 0.05
done
(( i < 20 )) || die "a killed client left programs, maps or links: $(left progs "$progs") progs, $(left maps "$maps") maps, $(left links "$links") links"
[[ -d /proc/$session ]] && die "the session process outlived its client"
wait_for audit 'end signal=9 \(client gone\)' || die "no audit line of the killed client: $(cat audit)"
wait "$killed" 2>/dev/null

# 5. fifty clients at once
echo "user $user max_sessions=64" > policy
clients=()
for ((i = 0; i < 50; i++)); do
	as_user -e "BEGIN { printf(\"ok %d\\n\", $i); exit(); }" > "c$i.out" 2>&1 &
	clients+=($!)
done
wait "${clients[@]}"
ok=$(cat c*.out | grep -c '^ok ')
(( ok == 50 )) || die "$ok of 50 clients served: $(cat c*.out | grep -v '^ok ' | sort | uniq -c | head)"

# 6. the audit log: who, what, how it ended
grep -q "uid=$uid user=$user client_pid=[0-9]* start" audit || die "audit: $(cat audit)"
grep -qE "uid=$uid user=$user program script=fnv1a64:[0-9a-f]{16} probes=3 map_bytes=[0-9]+ attach=tracepoint:syscalls:sys_enter_getppid,tracepoint:syscalls:sys_enter_openat,uprobe:" audit ||
	die "audit: $(cat audit)"
grep -q "uid=$uid end exit=0 seconds=" audit || die "audit: $(cat audit)"
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=
[[ -e s.sock ]] && die "the socket outlived the service"

# 7. without --connect: a user who cannot load BPF goes through
# /run/sonde.sock by itself (unless a real service is there already)
if [[ ! -e /run/sonde.sock ]]; then
	"$SONDE" serve --policy "$work/policy" --audit-file "$work/run.audit" 2> run.err &
	SERVER=$!
	for ((i = 0; i < 100; i++)); do [[ -S /run/sonde.sock ]] && break; sleep 0.05; done
	su "$user" -s /bin/bash -c "cd $work && ./sonde -q -e 'BEGIN { printf(\"through %d\n\", 1); exit(); }'" \
		> run.out 2>&1 || die "through /run/sonde.sock: $(cat run.out run.err)"
	expect_out run.out 'through 1'
	grep -q "user=$user program" run.audit || die "run.audit: $(cat run.audit)"
	kill -TERM "$SERVER"
	wait "$SERVER"
	SERVER=
	[[ -e /run/sonde.sock ]] && die "/run/sonde.sock outlived the service"
fi

# 8. socket activation, as sonde.socket starts the service
if command -v systemd-socket-activate > /dev/null; then
	systemd-socket-activate -l "$work/act.sock" "$SONDE" serve --policy "$work/policy" \
		--audit-file "$work/act.audit" > act.log 2>&1 &
	SERVER=$!
	for ((i = 0; i < 100; i++)); do [[ -S act.sock ]] && break; sleep 0.05; done
	chmod 666 act.sock
	su "$user" -s /bin/bash -c "cd $work && ./sonde --connect $work/act.sock -q -e 'BEGIN { printf(\"activated\n\"); exit(); }'" \
		> act.out 2>&1 || die "through the activated socket: $(cat act.out act.log)"
	expect_out act.out 'activated'
	grep -q 'listening on the socket systemd passed' act.audit || die "act.audit: $(cat act.audit)"
fi
exit 0
