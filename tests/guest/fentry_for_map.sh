# 0.26 on a 6.1 kernel: loops over maps (bpf_for_each_map_elem) and
# reads of count() and max() merged over the CPUs (bpf_loop,
# bpf_map_lookup_percpu_elem) in fentry and kretprobe programs.
. ./lib
trace "dd if=$data of=/dev/null bs=400 status=none" \
	'fentry:vfs_read /pid == cpid/ { @n[1] = count(); @m[1] = max(args.count); for ($kv : @n) { @seen = $kv.1; } }
	kretprobe:vfs_read /pid == cpid && @n[1] == 4/ { for ($kv : @m) { printf("max %d after %d reads\n", $kv.1, @n[$kv.0]); } }' \
	-q --dialect=0.26
expect "max 400 after 4 reads


@m[1]: 400
@n[1]: 4
@seen: 4"
stderr_clean
