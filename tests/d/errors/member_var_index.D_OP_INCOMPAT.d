int a[4];

BEGIN
{
	this->i = 2;
	a[this->i] = 1;
	exit(0);
}
