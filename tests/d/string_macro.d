/* $$N is macro argument N as a string, $N as a number; every argument
 * given is referenced (D_MACRO_UNUSED otherwise). */
#pragma D option quiet

BEGIN
{
	printf("[%s] %d [%s]\n", $$1, $2 + 1, $$2);
	printf("%d\n", $$1 == "hello");
	exit(0);
}
