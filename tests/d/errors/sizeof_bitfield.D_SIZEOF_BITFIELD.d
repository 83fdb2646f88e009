struct flags {
	int a : 3;
} f;

BEGIN
{
	trace(sizeof (f.a));
	exit(0);
}
