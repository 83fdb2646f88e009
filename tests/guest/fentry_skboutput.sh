# skboutput(): the packets __dev_queue_xmit sends on loopback (a TCP
# connection to 127.0.0.1) written to two pcap files: from the IP header
# on (offset 14 skips loopback's Ethernet header; whole packets, by
# args.skb->len), and the Ethernet header alone (14 bytes, offset 0).
# The files are read back byte by byte: the header (nanosecond magic,
# raw IP), one record per call that returned 0, each an IPv4 packet
# 127.0.0.1 -> 127.0.0.1 whose total length is the record's length, or
# an Ethernet header of zero addresses and type IPv4, stamped with the
# wall-clock time.
. ./lib
ip=$work/ip.pcap
eth=$work/eth.pcap
tcp_server 8082
trace "nc 127.0.0.1 8082" "
fentry:__dev_queue_xmit
{
	@r[skboutput(\"$ip\", args.skb, args.skb->len, 14)] = count();
	@e[skboutput(\"$eth\", args.skb, 14, 0)] = count();
}"
stderr_clean
now=$(date +%s)
n=$(sed -n 's/^@r\[0\]: //p' "$work/out")
[ -n "$n" ] && [ "$n" -ge 3 ] || { show; die "skboutput() did not return 0 for a handshake's packets"; }
has_line "@e[0]: $n"
[ "$(grep -c '^@' "$work/out")" = 2 ] || { show; die "skboutput() failed for some packets"; }

# records FILE: "magic M link L", then per record "LEN SECONDS NSECONDS
# HEX" (HEX: its first 20 bytes), then "records N rest BYTES-LEFT".
records() {
	od -A n -t u1 -v "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		printf "magic %02x%02x%02x%02x link %d\n", b[3], b[2], b[1], b[0], b[20]
		p = 24
		while (p + 16 <= n) {
			s = b[p] + 256 * b[p + 1] + 65536 * b[p + 2] + 16777216 * b[p + 3]
			ns = b[p + 4] + 256 * b[p + 5] + 65536 * b[p + 6] + 16777216 * b[p + 7]
			len = b[p + 8] + 256 * b[p + 9] + 65536 * b[p + 10]
			orig = b[p + 12] + 256 * b[p + 13] + 65536 * b[p + 14]
			if (orig != len)
				printf "original length %d differs\n", orig
			h = ""
			for (i = 0; i < len && i < 20; i++)
				h = h sprintf("%02x", b[p + 16 + i])
			printf "%d %d %d %s\n", len, s, ns, h
			p += 16 + len
			r++
		}
		printf "records %d rest %d\n", r + 0, n - p
	}'
}
records "$ip" > "$work/ip"
records "$eth" > "$work/eth"
for f in ip eth; do
	has_line "magic a1b23c4d link 101" "$work/$f"
	has_line "records $n rest 0" "$work/$f"
done
# IPv4 (0x45), total length (bytes 2, 3) = the record's, 127.0.0.1 both
# ways (bytes 12..19); a nanosecond part below 10^9; seconds now.
awk -v now="$now" '/^[0-9]/ {
	ok = substr($4, 1, 2) == "45" && sprintf("%04x", $1) == substr($4, 5, 4) &&
	     substr($4, 25, 16) == "7f0000017f000001" && $3 < 1000000000 &&
	     $2 <= now && $2 > now - 60
	if (!ok) { print "bad IP record: " $0; bad = 1 }
} END { exit bad }' "$work/ip" || { cat "$work/ip"; exit 1; }
awk '/^[0-9]/ && !($1 == 14 && $4 == "0000000000000000000000000800") {
	print "bad Ethernet record: " $0; bad = 1
} END { exit bad }' "$work/eth" || { cat "$work/eth"; exit 1; }
echo "$n packets"

# A file sonde cannot create stops the script before anything attaches.
timeout -s KILL 30 "$SONDE" -e 'fentry:__dev_queue_xmit { skboutput("/nonexistent/x.pcap", args.skb, 14, 0); }' \
	> "$work/out" 2> "$work/err" < /dev/null && { show; die "sonde ran with a pcap file it cannot write"; }
grep -qF "skboutput(): cannot write /nonexistent/x.pcap: No such file or directory" "$work/err" ||
	{ show; die "no message for a pcap file sonde cannot write"; }
lacks_line "Attaching 1 probe..."
