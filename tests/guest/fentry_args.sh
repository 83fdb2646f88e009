# fentry: args.count is vfs_read's size_t count, from BTF.
. ./lib
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	'fentry:vfs_read /pid == cpid/ { @[args.count] = count(); }'
expect "Attaching 1 probe...


@[123]: 5"
stderr_clean
