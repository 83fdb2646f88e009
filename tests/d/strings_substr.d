/* substr() by DTrace's rules (the cases of DTrace's tst.substr.d): a
 * negative index counts from the end, one still before the start
 * shortens the length by as much; an index at or past the end gives
 * ""; a negative length leaves that many characters off the end. */
#pragma D option quiet

BEGIN
{
	s = "foobarbazbop";
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 3), substr(s, 300),
	    substr(s, -10), substr(s, 0));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 1), substr(s, 11),
	    substr(s, 12), substr(s, 13));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 8, 20), substr(s, 4, 4),
	    substr(s, 5, 8), substr(s, 400, 20));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 400, -1), substr(s, 3, 0),
	    substr(s, 3, -1), substr(s, 3, -4));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 3, -20), substr(s, -10, -5),
	    substr(s, 0, 400), substr(s, -1, 400));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, -1, 0), substr(s, -1, -1),
	    substr(s, -24, 24), substr(s, -24, 12));
	printf("[%s] [%s] [%s]\n", substr(s, -24, 13), substr(s, -12, 12),
	    substr(s, -12, 11));
	i = -3;
	n = 2;
	printf("[%s] [%s]\n", substr(s, i, n), substr("", 0));
	exit(0);
}
