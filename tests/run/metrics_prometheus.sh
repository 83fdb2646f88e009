#!/bin/bash
# A real Prometheus (Debian's package) scrapes sonde --metrics, and its
# query API gives back the counters, the labels of keyed maps and the
# quantiles of a histogram (docs/fleet.md).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
if ! command -v prometheus > /dev/null; then
	[[ ${SONDE_REQUIRE_BPF-} == 1 ]] &&
		die "prometheus is not installed (apt-get install prometheus)"
	echo "prometheus is not installed"
	exit 77
fi
PROM=
cleanup() {
	[[ -n $PROM ]] && kill -KILL "$PROM" 2>/dev/null
	trace_cleanup
}
trap cleanup EXIT

# ten values of 5 ([4, 8): le 7) and ten of 100 ([64, 128): le 127)
"$SONDE" --metrics 0 -e 'BEGIN {
	@events = count(); @events = count(); @events = count();
	@bytes["read"] = sum((uint64)4096); @bytes["write"] = sum((uint64)512);
	$i = 0;
	while ($i < 10) { @latency = hist(5); @latency = hist(100); $i++; }
	printf("ready\n");
} interval:s:120 { exit(); }' > out 2> err &
TRACER=$!
wait_for out '^ready$' || die "sonde did not start: $(cat err)"
target=$(sed -n 's|^Serving metrics at http://\(.*\)/metrics$|\1|p' err)
[[ -n $target ]] || die "no metrics address: $(cat err)"

# Prometheus on a free port, scraping every second
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > prometheus.yml <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: sonde
    static_configs:
      - targets: ['$target']
EOF
prometheus --config.file=prometheus.yml --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$port" > prom.log 2>&1 &
PROM=$!
q() { python3 "$SONDE_ROOT/tests/lib/prom_query.py" "http://127.0.0.1:$port" "$@"; }
check() {	# check QUERY EXPECTED
	local got
	got=$(q "$1") || die "$got
$(tail -n 5 prom.log)"
	[[ $got == "$2" ]] || die "$1: expected
$2
got
$got"
}
check 'sonde_events_total' '{__name__=sonde_events_total} 3'
check 'sonde_bytes_total' '{__name__=sonde_bytes_total,key=read} 4096
{__name__=sonde_bytes_total,key=write} 512'
check 'sonde_latency_count' '{__name__=sonde_latency_count} 20'
check 'sonde_latency_sum' '{__name__=sonde_latency_sum} 1050'
# the median is the top of [4, 8), the 90th percentile 8/10 into (63, 127]
check 'histogram_quantile(0.5, sonde_latency_bucket)' '{} 7'
check 'histogram_quantile(0.9, sonde_latency_bucket)' '{} 114.2'
kill -INT "$TRACER"
wait "$TRACER" || die "sonde failed: $(cat err)"
TRACER=
exit 0
