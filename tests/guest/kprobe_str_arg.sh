# kprobe: arg1 of do_sys_openat2 is the user's file name; dd opens its
# input, then its output.
. ./lib
trace "dd if=$text of=/dev/null status=none" \
	'kprobe:do_sys_openat2 /pid == cpid/ { printf("%s\n", str(arg1)); }'
expect "Attaching 1 probe...
$text
/dev/null

"
stderr_clean
