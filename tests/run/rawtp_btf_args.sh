#!/bin/bash
# rawtracepoint args are typed from BTF (a tp_btf program): the exec of
# -c's command (run without a shell: one exec), with the task's comm
# read through args->p.
out=$("$SONDE" -q -c /bin/true -e 'rt:sched_process_exec /args->p->pid == cpid/ { @execs = count(); printf("%s %d\n", args->p->comm, args->old_pid == cpid); }' 2>&1)
want=$(printf 'true 1\n\n\n@execs: 1')
[[ "$out" == "$want" ]] || { echo "got: $out"; echo "want: $want"; exit 1; }
