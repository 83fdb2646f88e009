/* Integers stored into a variable or an associative array declared
 * with a narrower type are converted to it, as C converts them, by
 * plain and compound assignments and ++/--: globals, thread-locals,
 * clause-locals, associative arrays and thread-local ones. */
#pragma D option quiet

unsigned char C[int];
short S[string];
unsigned char g;
self unsigned char t;
self unsigned char a[int];
this unsigned char u;

BEGIN
{
	C[0] = -2;
	C[1] = 256;
	S["x"] = 70000;
	g = 250;
	g += 10;
	self->t = 255;
	self->t++;
	self->a[1] = 300;
	self->a[2] = 7;
	self->a[2] *= 40;
	this->u = 0x1ff;
	C[2] = 255;
	C[2]++;
	C[3] = 1;
	C[3]--;
	printf("%d %d %d\n", C[0], C[1], S["x"]);
	printf("%d %d %d %d %d\n", g, self->t, self->a[1], self->a[2], this->u);
	printf("%d %d %d\n", C[2], C[3], C[0] + 1);
	exit(0);
}
