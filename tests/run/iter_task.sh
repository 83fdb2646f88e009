#!/bin/bash
# iter:task visits every task once: our own process is among them with
# its comm, and the number of thread-group leaders matches /proc.
out=$("$SONDE" -q -e 'iter:task /ctx->task->pid == ctx->task->tgid/ { @procs = count(); if (ctx->task->pid == $1) { printf("me %s\n", ctx->task->comm); } }' $$ 2>&1)
grep -qx "me $(cat /proc/$$/comm)" <<<"$out" || { echo "own shell not seen: $out"; exit 1; }
n=$(sed -n 's/^@procs: //p' <<<"$out")
procs=$(ls -d /proc/[0-9]* | wc -l)
# processes come and go while we look: allow a small difference
(( n > 10 && n >= procs - 5 && n <= procs + 5 )) || { echo "@procs $n, /proc has $procs"; exit 1; }
