struct point {
	int x;
};
this struct point p;

BEGIN
{
	this->p.x += "a";
	exit(0);
}
