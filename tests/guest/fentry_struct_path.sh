# fentry: a chain of BTF pointers, args.path->dentry->d_name.name.  dd
# opens its input and output last (exec's open of the executable comes
# first).
. ./lib
trace "dd if=$text of=/dev/null status=none" \
	'fentry:vfs_open /pid == cpid/ { printf("%s\n", str(args.path->dentry->d_name.name)); }'
has_line "Attaching 1 probe..."
grep -v '^$' "$work/out" | tail -n 2 > "$work/last2"
expect "text
null" "$work/last2"
stderr_clean
