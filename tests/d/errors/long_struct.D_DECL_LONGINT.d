/* long is for integers */
long struct mystruct
{
	int i;
};

BEGIN
{
	exit(0);
}
