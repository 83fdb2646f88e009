short union u {
	int i;
};

BEGIN
{
	exit(0);
}
