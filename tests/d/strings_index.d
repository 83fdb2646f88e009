/* index() and rindex(): the first and last position of a string in
 * another, -1 when it is not there; the start by Perl's rules, as
 * DTrace has them (an empty string is found at the start, or at the
 * end for index() past it). */
#pragma D option quiet

BEGIN
{
	s = "foobarfoobar";
	printf("%d %d %d %d\n", index(s, "bar"), rindex(s, "bar"),
	    index(s, "baz"), rindex(s, "baz"));
	printf("%d %d %d %d\n", index(s, "bar", 4), index(s, "bar", 3),
	    index(s, "bar", -5), index(s, "bar", 100));
	printf("%d %d %d %d\n", rindex(s, "bar", 8), rindex(s, "bar", 9),
	    rindex(s, "bar", 100), rindex(s, "foo", -1));
	printf("%d %d %d %d\n", index(s, ""), rindex(s, ""),
	    index(s, "", 100), rindex(s, "", -1));
	printf("%d %d %d %d\n", index("", ""), rindex("", "", 5),
	    index("", "a"), index("ab", "abc"));
	t = "foo";
	printf("%d %d %d\n", index(s, t), rindex(s, t), index(s, t, 1));
	exit(0);
}
