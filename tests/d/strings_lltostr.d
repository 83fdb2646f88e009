/* lltostr(): decimal by default, signed; other bases unsigned, with
 * "0x" in base 16 and "0" in base 8, as DTrace writes them. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", lltostr(0), lltostr(42), lltostr(-1),
	    lltostr(-9223372036854775807 - 1));
	printf("[%s] [%s] [%s]\n", lltostr(9223372036854775807),
	    lltostr(255, 16), lltostr(0, 16));
	printf("[%s] [%s] [%s] [%s]\n", lltostr(8, 8), lltostr(0, 8),
	    lltostr(35, 36), lltostr(5, 2));
	printf("[%s]\n", lltostr(-1, 16));
	printf("[%s]\n", lltostr(-1, 2));
	b = 1;
	printf("[%s] [%s]\n", lltostr(10, b), lltostr(10, b + 2));
	exit(0);
}
