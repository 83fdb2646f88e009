/* a variable keeps its declared type */
int x;
char x;

BEGIN
{
	x = 1;
}
