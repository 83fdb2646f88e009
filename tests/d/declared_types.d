/* A global declared with an integer type holds what it is given
 * converted to that type, as C converts it, and prints so, and so do
 * declared thread-locals and clause-locals; other declarations
 * (pointers, arrays, functions, pointers to functions, an extern of
 * implicit type int) are read and type nothing. */
#pragma D option quiet

unsigned int i;
char c;
short s, t;
long long ll;
int never;
int *p;
void func(int, int);
extern int getint(void);
extern int *(*funcptr)(void);
extern int **(**funcptrptr)(void);
extern int noparms();
extern int varargs(int, ...);
extern implicit;
self int x;
self untyped;
self int unset;
this char tc;

BEGIN
{
	c = 'A';
	i = c;
	printf("c is %c i is %d\n", c, i);
	i = 4294967295;
	ll = i;
	printf("i is %d ll is %x\n", i, ll);
	ll = 8589934591;
	i = ll;
	printf("ll is %d i is %x\n", ll, i);
	s = 70000;
	t = -1;
	c = 300;
	printf("s is %d t is %d c is %d\n", s, t, c);
	self->x = 4294967297;
	this->tc = 300;
	printf("self->x is %d this->tc is %d\n", self->x, this->tc);
	printf("never assigned: %d %d\n", never, self->unset);
	exit(0);
}
