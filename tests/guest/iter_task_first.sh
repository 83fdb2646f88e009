# iter:task visits every task from the first: pid 1 (the guest's init)
# comes first, with seq_num 0, and its values print.  (On the hosts the
# kernel does not visit their pid 1, a protected supervisor whose /proc
# entries even root cannot read; the guest shows sonde misses nothing.)
. ./lib
"$SONDE" -q -e 'iter:task { if (ctx->task->pid < 3) { printf("%d %d %s\n", ctx->meta->seq_num, ctx->task->pid, ctx->task->comm); } }' \
	> "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
has_line "0 1 init"
has_line "1 2 kthreadd"
stderr_clean
