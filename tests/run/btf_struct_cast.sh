#!/bin/bash
# (struct task_struct *)curtask reads the current task's fields through
# BTF: pid and tgid match the builtins, comm matches comm, and a
# bitfield-free nested pointer (real_parent) is followed.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# run directly (not in $(...), a subshell) so that our shell is the parent
"$SONDE" -q -e 'BEGIN { $t = (struct task_struct *)curtask; printf("%d %d %d %d\n", $t->pid == tid, $t->tgid == pid, $t->comm == comm, $t->real_parent->tgid == $1); exit(); }' $$ > "$tmp" 2>&1
out=$(cat "$tmp")
[[ "$out" == $'1 1 1 1\n\n' || "$out" == "1 1 1 1" ]] || { echo "got: $out"; exit 1; }
