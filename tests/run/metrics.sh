#!/bin/bash
# --metrics: the maps over HTTP in Prometheus' text format while the
# script runs (docs/language.md, "Live metrics"): each kind of map's
# family, keys as labels, histograms with cumulative buckets, _sum and
# _count, what promtool says of it, a 404 for other paths, and the
# errors of a bad address and of a port already taken.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
get() { python3 "$SONDE_ROOT/tests/lib/http_get.py" "$@"; }

"$SONDE" --metrics 0 -e 'BEGIN {
	@requests[comm, 2] = count(); @requests[comm, 2] = count();
	@errors_total = count();
	@written = sum((uint64)300); @written = sum((uint64)12);
	@latency = hist(5); @latency = hist(100); @latency = hist(-3);
	@sizes[(int8)-1] = lhist(15, 0, 100, 10);
	@balance = sum(-4); @load = stats(7); @load = stats(3);
	@last = 42; @peak["x\"y"] = max(9); @name = "text";
	printf("ready\n");
} interval:s:60 { exit(); }' > out 2> err &
TRACER=$!
wait_for out '^ready$' || die "sonde did not start: $(cat err)"
url=$(sed -n 's/^Serving metrics at //p' err)
[[ $url == http://127.0.0.1:*/metrics ]] || die "no URL: $(cat err)"
get "$url" > scrape || die "GET $url failed: $(cat scrape)"
expect_file() {	# expect_file FILE TEXT
	[[ "$(cat "$1")" == "$2" ]] ||
		die "$1: expected:
$2
got:
$(cat "$1")"
}
expect_file scrape '200 text/plain; version=0.0.4; charset=utf-8
# HELP sonde_balance sonde map @balance: sum()
# TYPE sonde_balance gauge
sonde_balance -4
# HELP sonde_errors_total sonde map @errors_total: count()
# TYPE sonde_errors_total counter
sonde_errors_total 1
# HELP sonde_last sonde map @last: integer values
# TYPE sonde_last gauge
sonde_last 42
# HELP sonde_latency sonde map @latency: hist()
# TYPE sonde_latency histogram
sonde_latency_bucket{le="-1"} 1
sonde_latency_bucket{le="0"} 1
sonde_latency_bucket{le="1"} 1
sonde_latency_bucket{le="3"} 1
sonde_latency_bucket{le="7"} 2
sonde_latency_bucket{le="15"} 2
sonde_latency_bucket{le="31"} 2
sonde_latency_bucket{le="63"} 2
sonde_latency_bucket{le="127"} 3
sonde_latency_bucket{le="+Inf"} 3
sonde_latency_sum 102
sonde_latency_count 3
# HELP sonde_load sonde map @load: stats()
# TYPE sonde_load gauge
sonde_load{stat="count"} 2
sonde_load{stat="avg"} 5
sonde_load{stat="total"} 10
# HELP sonde_peak sonde map @peak: max()
# TYPE sonde_peak gauge
sonde_peak{key="x\"y"} 9
# HELP sonde_requests_total sonde map @requests: count()
# TYPE sonde_requests_total counter
sonde_requests_total{key0="sonde",key1="2"} 2
# HELP sonde_sizes sonde map @sizes: lhist()
# TYPE sonde_sizes histogram
sonde_sizes_bucket{key="-1",le="9"} 0
sonde_sizes_bucket{key="-1",le="19"} 1
sonde_sizes_bucket{key="-1",le="+Inf"} 1
sonde_sizes_sum{key="-1"} 15
sonde_sizes_count{key="-1"} 1
# HELP sonde_written_total sonde map @written: sum()
# TYPE sonde_written_total counter
sonde_written_total 312'
# promtool (Debian's prometheus package) finds nothing to say
if command -v promtool > /dev/null; then
	tail -n +2 scrape | promtool check metrics > lint 2>&1 ||
		die "promtool check metrics: $(cat lint)"
elif [[ ${SONDE_REQUIRE_BPF-} == 1 ]]; then
	die "promtool is not installed (apt-get install prometheus)"
fi
get "${url%/metrics}/" > other
expect_file other '404 text/plain; charset=utf-8
sonde serves its maps at /metrics'
# the same port again: taken
hostport=${url#http://}; hostport=${hostport%/metrics}
"$SONDE" --metrics "$hostport" -e 'BEGIN { exit(); }' > out2 2> err2 &&
	die "a second server on the same port started"
port=${hostport##*:}
expect_file err2 "sonde: --metrics: cannot listen on 127.0.0.1 port $port: Address already in use"
kill -INT "$TRACER"
wait "$TRACER" || die "sonde failed: $(cat err)"
TRACER=
# the printed maps are the same as without --metrics: no sum slot
expect_file out 'Attaching 2 probes...
ready


@balance: -4
@errors_total: 1
@last: 42
@latency: 
(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[0]                    0 |                                                    |
[1]                    0 |                                                    |
[2, 4)                 0 |                                                    |
[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[8, 16)                0 |                                                    |
[16, 32)               0 |                                                    |
[32, 64)               0 |                                                    |
[64, 128)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@load: count 2, average 5, total 10

@name: text
@peak[x"y]: 9
@requests[sonde, 2]: 2
@sizes[-1]: 
[10, 20)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@written: 312'
# a bad address, before anything is loaded
for a in x :70000 '127.0.0.1:' ; do
	"$SONDE" --metrics "$a" -e 'BEGIN { exit(); }' > out3 2> err3 &&
		die "--metrics $a was taken"
	expect_file err3 "sonde: --metrics takes PORT, HOST:PORT, [IPV6]:PORT or fd:N, not '$a'"
done
# contrib/: the scrape configuration is one promtool accepts, the
# DaemonSet's script compiles (docs/fleet.md)
if command -v promtool > /dev/null; then
	promtool check config "$SONDE_ROOT/contrib/prometheus/sonde-scrape.yml" > lint 2>&1 ||
		die "contrib/prometheus/sonde-scrape.yml: $(cat lint)"
fi
python3 - "$SONDE_ROOT/contrib/kubernetes/sonde-daemonset.yaml" > node.bt <<'PY' ||
import sys
text = open(sys.argv[1]).read()
body = text.split("node.bt: |\n", 1)[1].split("\n---", 1)[0]
sys.stdout.write("".join(l[4:] + "\n" for l in body.splitlines()))
PY
	die "no script in the DaemonSet"
grep -q block_rq_complete node.bt || die "the DaemonSet's script: $(cat node.bt)"
"$SONDE" --dump=ast node.bt > /dev/null 2> err4 || die "the DaemonSet's script: $(cat err4)"
exit 0
