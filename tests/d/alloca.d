/* Scratch memory: alloca(n) gives n bytes of the clause's scratch (8-byte
 * aligned, alloca(0) the next free place), written through the pointer
 * (*p, p[i], p->m, p->s.m) and read back; bcopy() copies a string or
 * other memory into it; (string)p and stringof(p) read a string there;
 * &p[i] points into it; each clause starts with all of it free again. */
#pragma D option quiet
#pragma D option scratchsize=128

struct inner { int a; char b; };
struct st { long first; struct inner in; } *ptr;
int *arr;

BEGIN
{
	base = (char *)alloca(0);
	x = (char *)alloca(1);
	x = (char *)alloca(10);
	y = (char *)alloca(1);
	printf("apart %d, alloca(0) twice the same %d\n", (y - x) / 8,
	    alloca(0) == alloca(0));
	x[0] = 'h';
	x[1] = 'i';
	x[2] = 0;
	*y = '!';
	printf("%s%c %d\n", stringof(x), *y, x[1]);
	ptr = alloca(sizeof(struct st));
	ptr->first = -5;
	ptr->in.a = 0x42;
	ptr->in.b = 'z';
	printf("%d %x %c\n", ptr->first, ptr->in.a, ptr->in.b);
	arr = alloca(5 * sizeof(int));
	arr[3] = 7;
	arr[4] = arr[3] * 6;
	printf("%d %d\n", arr[3], arr[4]);
	s = "0123456789";
	d = (char *)alloca(12);
	bcopy(s, d, 11);
	bcopy(d + 2, &d[7], 3);
	printf("%s %s\n", (string)d, stringof(&d[7]));
}

BEGIN
{
	again = (char *)alloca(1);
	printf("the next clause starts over: %d\n", again == base);
	exit(0);
}

ERROR
{
	printf("unexpected fault %d at %x\n", arg4, arg5);
	exit(1);
}
