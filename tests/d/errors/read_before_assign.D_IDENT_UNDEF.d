/* dtrace resolves names as it reads: start is unknown in END, which
 * comes before the clause that assigns it */
END
{
	total = timestamp - start;
}

BEGIN
{
	start = timestamp;
	exit(0);
}
