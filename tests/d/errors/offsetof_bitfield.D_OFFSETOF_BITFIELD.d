struct r {
	int a : 17;
	int b : 3;
};

BEGIN
{
	printf("%d", offsetof(struct r, b));
	exit(0);
}
