#!/bin/bash
# args[] of sonde dtrace's io provider: the bufinfo_t (b_flags with
# B_READ or B_WRITE, b_bcount), devinfo_t (dev_statname, dev_pathname,
# dev_major) and fileinfo_t ("<none>": a block request names no file)
# of a block request, at io:::start and io:::done; written with
# O_DIRECT, so that the requests are dd's own (its reads, loading
# itself, are left out: whether they reach the disk varies).
. "$SONDE_ROOT/tests/usdt/lib.sh"
dev=$(df --output=source . | tail -1)
[[ $dev == /dev/* && -b $dev ]] || { echo "no block device under $PWD"; exit 77; }
out=$(timeout 30 "$SONDE" dtrace -q -c 'dd if=/dev/zero of=ddfile bs=4k count=3 oflag=direct' -n '
io:::start /execname == "dd" && args[0]->b_bcount == 4096 && args[0]->b_flags & B_WRITE/ {
	printf("%s %d %d %d %d\n", args[0]->b_flags & B_WRITE ? "write" : "read",
	    args[0]->b_bcount, args[1]->dev_major > 0,
	    strjoin("/dev/", args[1]->dev_statname) == args[1]->dev_pathname,
	    args[2]->fi_pathname == "<none>");
}' 2>/dev/null | grep -v '^$')
same "io:::start args" "write 4096 1 1 1
write 4096 1 1 1
write 4096 1 1 1" "$out"
exit 0
