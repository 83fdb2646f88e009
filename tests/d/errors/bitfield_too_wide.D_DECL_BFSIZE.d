struct s {
	char c : 9;
};

BEGIN
{
	exit(0);
}
