struct flags {
	int a : 3;
} f;

BEGIN
{
	p = &f.a;
	exit(0);
}
