# path(): the file's path by bpf_d_path, from a struct path member of a
# fentry's BTF argument (args.filp->f_path) and from a pointer to one
# (security_inode_getattr's path), in fentry and fexit; dd closes its input and
# output last.
. ./lib
trace "dd if=$text of=/dev/null status=none" \
	'fentry:filp_close /pid == cpid/ { printf("%s\n", path(args.filp->f_path)); }'
has_line "Attaching 1 probe..."
has_line "$text"
has_line "/dev/null"
stderr_clean
trace "stat $text" \
	'fexit:security_inode_getattr /pid == cpid/ { @[path(args.path)] = count(); }'
has_line "@[$text]: 1"
stderr_clean
