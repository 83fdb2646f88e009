/* stop() takes none */
BEGIN
{
	stop("x");
}
