/* A clause too long for one BPF program is cut into pieces (bpf/cg.c):
 * every record after speculate() is speculative, whichever piece
 * sends it, so all 120 lines print after "not speculative", at the
 * commit. */
#pragma D option quiet

#define P printf("%d %s\n", i++, execname);
#define P10 P P P P P P P P P P

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	P10 P10 P10 P10 P10 P10
	P10 P10 P10 P10 P10 P10
}

BEGIN
{
	printf("not speculative\n");
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	exit(0);
}
