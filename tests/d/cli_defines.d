/* -D NAME=VALUE, -D NAME (1) and -U NAME define and undefine macros
 * before the script is read, in their order; a macro may stand for a
 * whole probe description. */
#pragma D option quiet

probe
{
#ifdef BAR
	printf("BAR is defined\n");
#else
	printf("BAR is not defined\n");
#endif
	printf("FOO is %d, ONE is %d\n", FOO, ONE);
	exit(0);
}
