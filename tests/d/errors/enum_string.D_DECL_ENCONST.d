enum e {
	A = "text"
};

BEGIN
{
	exit(0);
}
