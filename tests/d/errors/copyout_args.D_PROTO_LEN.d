/* copyout() takes three arguments */
BEGIN
{
	copyout(0, 20);
}
