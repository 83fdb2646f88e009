# lsm:HOOK: a BPF LSM program on a security hook (Debian's kernels run
# the BPF LSM: bpf is in their CONFIG_LSM), typed by the hook's BTF
# (args.file); override(-EACCES) denies: the traced cat alone cannot
# open its file, while other cats running all along open theirs.
# -l lists the hooks.
. ./lib
"$SONDE" -l 'lsm:file_op*' > "$work/l" 2>&1 || die "-l: $(cat "$work/l")"
grep -qx "lsm:file_open" "$work/l" || die "-l lacks lsm:file_open: $(cat "$work/l")"
(
	while [ ! -e "$work/stop" ]; do
		cat "$text" > /dev/null 2>> "$work/bgerr" || echo fail >> "$work/bg"
	done
) &
bg=$!
timeout -s KILL 30 "$SONDE" --unsafe -c "cat $text" \
	-e 'lsm:file_open /pid == cpid && comm == "cat"/ { override(-EACCES); @[str(args.file->f_path.dentry->d_name.name)] = count(); }' \
	> "$work/out" 2> "$work/err" < /dev/null
rc=$?
touch "$work/stop"
wait $bg
[ $rc = 0 ] || die "sonde exited $rc: $(show)"
grep -q "hello guest" "$work/out" && die "the traced cat read its file: $(show)"
grep -q "cat: can't open '$text': Permission denied" "$work/err" ||
	die "the traced cat did not fail with EACCES: $(show)"
has_line "@[text]: 1"
[ -s "$work/bg" ] && die "other cats failed too: $(cat "$work/bgerr")"
exit 0
