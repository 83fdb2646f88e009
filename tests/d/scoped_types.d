/* struct D`name is the program's own struct, struct vmlinux`name the
 * kernel's; sizeof takes float, double and long double. */
#pragma D option quiet

struct pair {
	unsigned int a;
	unsigned int b;
};

BEGIN
{
	p = (struct D`pair *)alloca(sizeof(struct D`pair));
	p->a = 7;
	p->b = 9;
	printf("%d %d %d\n", p->a, p->b, sizeof(struct D`pair));
	printf("%d\n", sizeof(struct vmlinux`task_struct) == sizeof(struct task_struct));
	printf("%d %d %d\n", sizeof(float), sizeof(double), sizeof(long double));
	exit(0);
}
