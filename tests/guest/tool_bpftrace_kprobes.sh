# bpftrace 0.17's own kprobe tools, run unchanged from the installed
# bpftrace package (tools/vm-run copies /usr/sbin/*.bt to
# /vm/bpftrace-tools): they include kernel headers the guest does not
# have (<net/sock.h>, <linux/socket.h>), use AF_INET and the TCP states
# as constants, struct sock casts and a struct sock pointer as a map
# key.  One TCP connection on 127.0.0.1 must show in tcpconnect,
# tcpaccept and tcplife with its addresses and port; tcpretrans,
# tcpdrop and vfsstat must attach and stop cleanly, vfscount count dd's
# reads.  (biolatency.bt's functions are inlined in the 6.1 kernel: it
# fails there under bpftrace too.)
. ./lib
tools=/vm/bpftrace-tools
[ -f "$tools/tcpconnect.bt" ] || skip "bpftrace's tools are not installed on the host"

# run TOOL CMD: the tool under -c CMD; stdout in $work/out
run() {
	timeout -s KILL 30 "$SONDE" -c "$2" "$tools/$1" > "$work/out" 2> "$work/err" < /dev/null ||
		die "$1 failed (exit $?): $(show)"
	stderr_clean
	grep -q '^Attaching [0-9]* probes*\.\.\.$' "$work/out" || die "$1: no Attaching line: $(show)"
}

tcp_server 8081
run tcpconnect.bt "nc 127.0.0.1 8081"
grep -Eq '^[0-9:]+ +[0-9]+ +nc +127\.0\.0\.1 +[0-9]+ +127\.0\.0\.1 +8081 *$' "$work/out" ||
	die "tcpconnect: no connection line: $(show)"

# tcpaccept traces the server's accept (busybox nc listens on IPv6, so
# the addresses are IPv4-mapped)
cat > "$work/accept.sh" <<SH
nc -l -p 8082 > /dev/null 2>&1 < /dev/null &
i=0
while ! netstat -ltn 2>/dev/null | grep -q ":8082 "; do i=\$((i + 1)); [ \$i -gt 100 ] && exit 1; sleep 0.05; done
nc 127.0.0.1 8082 < /dev/null
wait
SH
run tcpaccept.bt "sh $work/accept.sh"
grep -Eq ' (::ffff:)?127\.0\.0\.1 +[0-9]+ +(::ffff:)?127\.0\.0\.1 +8082 +[0-9]+/[0-9]+ *$' "$work/out" ||
	die "tcpaccept: no accept line: $(show)"

tcp_server 8083
run tcplife.bt "nc 127.0.0.1 8083"
grep -Eq '^[0-9]+ +nc +127\.0\.0\.1 +[0-9]+ +127\.0\.0\.1 +8083 +[0-9]+ +[0-9]+ +[0-9]+ *$' "$work/out" ||
	die "tcplife: no session line: $(show)"

run tcpretrans.bt "sleep 0.2"
has_line "Tracing tcp retransmits. Hit Ctrl-C to end."
run tcpdrop.bt "sleep 0.2"
run vfsstat.bt "sleep 1.2"
grep -q '^@\[vfs_read\]: [0-9]*$' "$work/out" || die "vfsstat: no vfs_read count: $(show)"
run vfscount.bt "dd if=$data of=/dev/null bs=200 count=5 status=none"
n=$(sed -n 's/^@\[vfs_read\]: //p' "$work/out")
[ -n "$n" ] && [ "$n" -ge 6 ] || die "vfscount: vfs_read counted '$n' times, want 6 or more: $(show)"
exit 0
