# override() in an fentry probe makes it a BPF_MODIFY_RETURN program
# (said with -v): security_file_open, a hook the kernel lets BPF change,
# returns -EACCES to the traced cat alone, which then cannot open its
# file, while other cats running all along open theirs.  A function the
# kernel does not let BPF change is refused with a reason.
. ./lib
(
	while [ ! -e "$work/stop" ]; do
		cat "$text" > /dev/null 2>> "$work/bgerr" || echo fail >> "$work/bg"
	done
) &
bg=$!
timeout -s KILL 30 "$SONDE" -v --unsafe -c "cat $text" \
	-e 'fentry:security_file_open /pid == cpid && comm == "cat"/ { override(-EACCES); @n = count(); }' \
	> "$work/out" 2> "$work/err" < /dev/null
rc=$?
touch "$work/stop"
wait $bg
[ $rc = 0 ] || die "sonde exited $rc: $(show)"
grep -q "fentry:security_file_open: override() makes it a BPF_MODIFY_RETURN program" "$work/err" ||
	die "no -v note: $(show)"
grep -q "hello guest" "$work/out" && die "the traced cat read its file: $(show)"
# (comm: once cat runs, not sonde's exec of it, which opens it too)
grep -q "cat: can't open '$text': Permission denied" "$work/err" ||
	die "the traced cat did not fail with EACCES: $(show)"
has_line "@n: 1"
[ -s "$work/bg" ] && die "other cats failed too: $(cat "$work/bgerr")"
# a function outside the kernel's list
out=$("$SONDE" --unsafe -e 'fentry:vfs_read { override(-5); }' 2>&1)
[ $? = 1 ] || die "vfs_read: not refused: $out"
case $out in
*"override() in an fentry probe needs a function whose return the kernel lets BPF change"*) ;;
*) die "vfs_read: no reason: $out" ;;
esac
exit 0
