/* D's arithmetic does not promote to int: of two integers the result
 * has the wider type, or of two as wide the unsigned one, and printf
 * prints it so (an unsigned char plus a signed char wraps at 256, an
 * unsigned int prints unsigned even with %d). */
#pragma D option quiet

unsigned char C[int];
signed char c[int];
unsigned short S;
short s;
unsigned int I;

BEGIN
{
	C[0] = -2;
	c[0] = 3;
	S = -2;
	s = -3;
	I = 2;
	printf("%d %d\n", C[0] + c[0], c[0] + C[0]);
	printf("%d %d\n", S + C[0], s + c[0]);
	printf("%d %d\n", I - 7, s * 2);
	printf("%d\n", C[0] + c[0] == 1);
	exit(0);
}
