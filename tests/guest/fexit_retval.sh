# fexit: retval of vfs_read; dd bs=400 reads the 1000-byte file as 400,
# 400, 200 and 0.
. ./lib
trace "dd if=$data of=/dev/null bs=400 status=none" \
	'fexit:vfs_read /pid == cpid/ { @ret = sum(retval); @n = count(); }'
expect "Attaching 1 probe...


@n: 4
@ret: 1000"
stderr_clean
