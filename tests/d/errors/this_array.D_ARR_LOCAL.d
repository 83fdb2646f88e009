/* this-> variables are scalars */
BEGIN
{
	this->x[1] = 2;
}
