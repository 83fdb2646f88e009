# kprobe: count vfs_read calls; dd makes exactly 5 reads.
. ./lib
trace "dd if=$data of=/dev/null bs=123 count=5 status=none" \
	'kprobe:vfs_read /pid == cpid/ { @ = count(); }'
expect "Attaching 1 probe...


@: 5"
stderr_clean
