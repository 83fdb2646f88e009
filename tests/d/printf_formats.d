/* D's printf: dynamic widths and precisions, %?, 64-bit values without
 * a length modifier, %p without 0x, %S escapes, %i, %%. */
#pragma D option quiet

BEGIN
{
	x = 3;
	printf("[%*d]\n", x, 7);
	printf("[%-*d]\n", x, 7);
	printf("[%*d]\n", -4, 7);
	printf("[%.*s]\n", 2, "hello");
	printf("[%*.*s]\n", 6, 3, "hello");
	printf("[%?d]\n", 42);
	printf("[%d %x]\n", 8589934591, 8589934591);
	printf("[%hd %hhu]\n", 70000, 300);
	printf("[%p %#x]\n", (void *)97, 255);
	printf("[%S]\n", "tab\there\n");
	printf("[%i %u %o %c]\n", -5, 5, 8, 65);
	printf("[100%%]\n");
	exit(0);
}
