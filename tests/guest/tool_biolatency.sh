# A port of biolatency: block I/O latency from request start to end, by
# kprobes on blk_mq_start_request and blk_mq_end_request keyed by the
# request (blk_account_io_* are inlined on 6.1).  8 direct reads of a
# null_blk device are 8 requests.
. ./lib
null_blk
trace "dd if=/dev/nullb0 of=/dev/null bs=4096 count=8 iflag=direct status=none" '
BEGIN { printf("Tracing block device I/O... Hit Ctrl-C to end.\n"); }
kprobe:blk_mq_start_request { @start[arg0] = nsecs; }
kprobe:blk_mq_end_request /@start[arg0]/
{
	@usecs = hist((nsecs - @start[arg0]) / 1000);
	@n = count();
	delete(@start[arg0]);
}
END { clear(@start); }'
has_line "Attaching 4 probes..."
has_line "Tracing block device I/O... Hit Ctrl-C to end."
has_line "@n: 8"
has_line "@usecs: "
[ "$(hist_total)" = 8 ] || die "the histogram counts $(hist_total) requests, not 8: $(show)"
stderr_clean
