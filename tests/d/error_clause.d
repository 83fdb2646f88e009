/* A fault stops its clause, is reported as dtrace reports it, and runs
 * the ERROR clauses with what it was: arg1 the probe's ID, arg2 the
 * action, arg3 -1, arg4 the fault (DTRACEFLT_BADADDR for a NULL
 * pointer's member, DTRACEFLT_DIVZERO), arg5 the address; the other
 * clauses of the probe and END still run. */
#pragma D option quiet

BEGIN
{
	printf("before\n");
	trace(((struct task_struct *)NULL)->pid);
	printf("not reached\n");
}

BEGIN
{
	zero = 0;
	x = 10 / zero;
	printf("not reached either\n");
}

BEGIN
{
	printf("third clause runs\n");
	exit(3);
}

ERROR
/arg4 == DTRACEFLT_BADADDR/
{
	printf("badaddr id %d action %d dif %d addr %d\n", arg1, arg2, arg3,
	    arg5);
}

ERROR
/arg4 == DTRACEFLT_DIVZERO/
{
	printf("divzero id %d action %d\n", arg1, arg2);
}

END
{
	printf("end\n");
}
