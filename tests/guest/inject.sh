# sonde inject fails chosen calls in the kernel (fentry BPF_MODIFY_RETURN
# on the hook where the call is checked, security_file_open for the
# opens), with each of its filters and counters, and reports what it
# did, in text and JSON.  busybox cat opens its files one by one and
# goes on after a failure, so the calls and failures are countable.
. ./lib
f=$text
# inj OPTIONS...: sonde inject with them; its stdout in $work/out,
# stderr (the command's too) in $work/err
inj() {
	timeout -s KILL 30 "$SONDE" inject "$@" > "$work/out" 2> "$work/err" < /dev/null ||
		die "sonde inject $*: exit $?: $(show)"
}
# fails N: cat said N times that it could not open a file
fails() {
	n=$(grep -c "No such file or directory" "$work/err")
	[ "$n" = "$1" ] || die "cat failed $n times, want $1: $(show)"
}
reads() {
	n=$(grep -c "hello guest" "$work/out")
	[ "$n" = "$1" ] || die "cat read $n files, want $1: $(show)"
}

# one open, failed; what is armed is said first
inj --fail openat --errno ENOENT -c "cat $f"
grep -q "^sonde inject: arming openat (fentry:security_file_open) to return -ENOENT, in the command" "$work/err" ||
	die "no summary: $(show)"
fails 1; reads 0
has_line "sonde inject: openat (fentry:security_file_open): 1 of 1 matching calls made to return -2"

# --every 2 of four opens: the second and the fourth
inj --fail open --errno ENOENT --every 2 -c "cat $f $f $f $f"
fails 2; reads 2
has_line "sonde inject: open (fentry:security_file_open): 2 of 4 matching calls made to return -2"

# --after 3 of five: the fourth and fifth
inj --fail openat --errno ENOENT --after 3 -c "cat $f $f $f $f $f"
fails 2; reads 3
has_line "sonde inject: openat (fentry:security_file_open): 2 of 5 matching calls made to return -2"

# --count 2 (of --every 2): the second and fourth, then sonde stops
inj --fail openat --errno ENOENT --every 2 --count 2 -c "cat $f $f $f $f $f $f"
has_line "sonde inject: openat (fentry:security_file_open): 2 of 4 matching calls made to return -2"

# --path-prefix: only the file under it
echo other > "$work/other"
inj --fail openat --errno ENOENT --path-prefix "$work/te" -c "cat $f $work/other $f"
fails 2; grep -q "^other$" "$work/out" || die "the other file: $(show)"
has_line "sonde inject: openat (fentry:security_file_open): 2 of 2 matching calls made to return -2"

# --probability 0.5 over 40 opens: some fail, some do not (each way
# 2^-40 to fail), and the report counts the failures cat saw
inj --fail openat --errno ENOENT --probability 0.5 -c "cat $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f $f"
k=$(grep -c "No such file or directory" "$work/err")
[ "$k" -gt 0 ] && [ "$k" -lt 40 ] || die "probability 0.5: $k of 40 failed"
has_line "sonde inject: openat (fentry:security_file_open): $k of 40 matching calls made to return -2"

# --return and -f json
inj --fail openat --return -13 -f json -c "cat $f"
grep -q "Permission denied" "$work/err" || die "--return -13: $(show)"
has_line '{"type": "inject", "data": {"fail": "openat", "probe": "fentry:security_file_open", "return": -13, "calls": 1, "injected": 1}}'

# inj_bg OPTIONS...: sonde inject in the background (--count ends it),
# once it has attached; inj_done WHAT: it ended well, one injection of
# one call reported
inj_bg() {
	rm -f "$work/bg.out" "$work/bg.err"
	timeout -s KILL 30 "$SONDE" inject "$@" > "$work/bg.out" 2> "$work/bg.err" < /dev/null &
	bg=$!
	i=0
	until grep -q "Attached" "$work/bg.err"; do
		i=$((i + 1)); [ $i -lt 200 ] || die "inject did not attach: $(cat "$work/bg.err")"
		sleep 0.1
	done
}
inj_done() {
	wait $bg || die "inject $1: exit $?: $(cat "$work/bg.err")"
	grep -qx "sonde inject: openat (fentry:security_file_open): 1 of 1 matching calls made to return -2" "$work/bg.out" ||
		die "$1 report: $(cat "$work/bg.out" "$work/bg.err")"
}

# --comm, without -c: only cat's opens fail, not head's; --count 1 ends
# the run after the first
inj_bg --fail openat --errno ENOENT --comm cat --count 1
head -n 1 "$f" | grep -q "hello guest" || die "head's open failed"
cat "$f" > /dev/null 2>&1 && die "cat's open did not fail"
inj_done --comm

# --cgroup: only tasks in it (and only on the test's files: the exec of
# cat opens /bin/busybox first, and busybox sh, when that fails, runs
# the applet itself)
mkdir -p /sys/fs/cgroup
grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup || skip "no cgroup2"
mkdir -p /sys/fs/cgroup/inj
inj_bg --fail openat --errno ENOENT --cgroup /sys/fs/cgroup/inj --path-prefix "$work/" --count 1
cat "$f" > /dev/null || die "an open outside the cgroup failed"
sh -c 'echo $$ > /sys/fs/cgroup/inj/cgroup.procs || exit 0; exec cat "$1"' sh "$f" > /dev/null 2> "$work/cg.err" &&
	die "the open in the cgroup did not fail: $(cat "$work/cg.err")"
inj_done --cgroup
rmdir /sys/fs/cgroup/inj 2>/dev/null

# disarmed on any exit, SIGKILL included: the programs hang on links
# sonde's process holds
inj_bg --fail openat --errno ENOENT --comm cat
cat "$f" > /dev/null 2>&1 && die "armed, but cat's open did not fail"
kill -9 $bg
wait $bg 2> /dev/null
cat "$f" > /dev/null 2>&1 || die "still armed after sonde inject was killed"
exit 0
