/* curpsinfo, curlwpsinfo and curcpu: proc(4)'s psinfo_t and lwpsinfo_t
 * and DTrace's cpuinfo_t, translated from the current task (the
 * translators in sonde's D library); each compared with the built-in
 * variable that says the same. */
#pragma D option quiet

BEGIN
{
	printf("pid %d ppid %d\n", curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid);
	printf("uid %d gid %d\n", curpsinfo->pr_uid == uid,
	    curpsinfo->pr_gid == gid);
	printf("fname %d\n", curpsinfo->pr_fname == execname);
	printf("addr %d model %d\n", curpsinfo->pr_addr == (uintptr_t)curthread,
	    curpsinfo->pr_dmodel == PR_MODEL_LP64);
	printf("lwpid %d name %d sname %c\n", curlwpsinfo->pr_lwpid == tid,
	    curlwpsinfo->pr_name == execname, curlwpsinfo->pr_sname);
	printf("cpu %d\n", curcpu->cpu_id == cpu);
	exit(0);
}
