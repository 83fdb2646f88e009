# A port of the classic one-liner "vfs reads by process":
# kprobe:vfs_read { @[comm] = count(); }, unfiltered.
. ./lib
trace "dd if=$data of=/dev/null bs=100 count=7 status=none" \
	'kprobe:vfs_read { @[comm] = count(); }'
has_line "Attaching 1 probe..."
has_line "@[dd]: 7"
stderr_clean
