#!/bin/bash
# username: the uid is recorded in BPF and printed as the user's name:
# in printf("%s"), as a map key (alone and in a tuple), in print(), in a
# variable, in JSON.  sonde itself (BEGIN) runs as root; a trigger run
# by setpriv as another user prints that user's name, and a uid the
# password database does not know prints as its number.
. "$SONDE_ROOT/tests/lib/trace.sh"
root=$(getent passwd 0 | cut -d: -f1)
[[ -n $root ]] || { echo "uid 0 has no name here"; exit 77; }

"$SONDE" -e 'BEGIN {
	$u = username;
	printf("[%s] [%-6s] %d\n", username, $u, username == $u);
	print(username);
	print((username, uid));
	@[username] = count();
	@t[username, 1] = count();
	@v = username;
	exit();
}' > "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
expect "Attaching 1 probe...
[$root] [$(printf '%-6s' "$root")] 1
$root
($root, 0)


@[$root]: 1
@t[$root, 1]: 1
@v: $root"
stderr_clean

"$SONDE" -q -f json -e 'BEGIN { @[username] = count(); print(username); exit(); }' \
	> "$work/out" 2> "$work/err" || die "sonde -f json failed: $(cat "$work/err")"
expect "{\"type\": \"value\", \"data\": \"$root\"}
{\"type\": \"map\", \"data\": {\"@\": {\"$root\": 1}}}"
stderr_clean

# Other users: nobody (65534) by name, and a uid with no entry (below
# 65534: keys with a username sort by uid).
command -v setpriv > /dev/null || { echo "setpriv is not installed"; exit 77; }
other=$(getent passwd 65534 | cut -d: -f1)
[[ -n $other ]] || { echo "uid 65534 has no name here"; exit 77; }
unknown=
for u in 4242 54321 61234; do
	getent passwd "$u" > /dev/null || { unknown=$u; break; }
done
[[ -n $unknown ]] || { echo "no unnamed uid found"; exit 77; }
prog syscalls
# the trigger runs as those users: they need to reach it
chmod 755 "$work"
ln -s "$PROGS/syscalls" "$work/uname-trig" || exit 1
tracer_start "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /comm == "uname-trig"/ {
	printf("%s %d\n", username, uid);
	@[username, uid] = count();
}'
for u in 65534 "$unknown"; do
	setpriv --reuid="$u" --regid="$u" --clear-groups "$work/uname-trig" getppid 1 ||
		die "setpriv --reuid=$u failed"
done
"$work/uname-trig" getppid 1 || die "trigger failed"
tracer_stop
expect "Attaching 2 probes...
ready
$other 65534
$unknown $unknown
$root 0


@[$root, 0]: 1
@[$unknown, $unknown]: 1
@[$other, 65534]: 1"
stderr_clean
