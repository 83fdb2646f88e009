struct s {
	double : 1;
};

BEGIN
{
	exit(0);
}
