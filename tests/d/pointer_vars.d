/* Pointers into D's global variables: &a[i] of an array variable and
 * &g.m of a struct variable point into the map value that holds them
 * (kernel memory, read back through the pointer), an array variable
 * given as a value is the address of its first element, pointers move
 * by their type's size and two of them subtract to a count. */
#pragma D option quiet

int a[4];
int *p;
struct pair {
	int x;
	long y;
} g;

BEGIN
{
	a[0] = 10;
	a[1] = 20;
	a[2] = 30;
	a[3] = 40;
	p = &a[1];
	printf("*p %d p[1] %d *(p + 2) %d\n", *p, p[1], *(p + 2));
	q = &a[3];
	printf("q - p %d\n", (int)(q - p));
	r = a;
	printf("r[0] %d r[3] %d\n", r[0], r[3]);
	g.y = 1234567890123;
	yp = &g.y;
	printf("*yp %d\n", *yp);
}

BEGIN
{
	/* another clause reads through the same pointers */
	printf("again %d %d\n", *p, r[2]);
	exit(0);
}
