unsigned struct s {
	int i;
};

BEGIN
{
	exit(0);
}
