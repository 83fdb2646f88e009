# kretprobe: retval of vfs_read; dd bs=400 reads 400, 400, 200, then 0
# at the end of the 1000-byte file.
. ./lib
trace "dd if=$data of=/dev/null bs=400 status=none" \
	'kretprobe:vfs_read /pid == cpid/ { @r = hist(retval); }'
expect "Attaching 1 probe...


@r: 
[0]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |
[1]                    0 |                                                    |
[2, 4)                 0 |                                                    |
[4, 8)                 0 |                                                    |
[8, 16)                0 |                                                    |
[16, 32)               0 |                                                    |
[32, 64)               0 |                                                    |
[64, 128)              0 |                                                    |
[128, 256)             1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |
[256, 512)             2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
"
stderr_clean
