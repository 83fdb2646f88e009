/* printa() formats checked against the keys and printed: a '*' width
 * from an integer key, keys left over, %@Y and %@T of a timestamp
 * (UTC here), %k of a stack key. */
#pragma D option quiet

BEGIN
{
	@w[12, "abc"] = count();
	@t = min(1075064400 * (long long)1000000000);
	printa("[%*s] %@d\n", @w);
	printa("only the value: %@d\n", @w);
	printa("%@Y|%@T|%@26Y|\n", @t);
	printf("%Y %T\n", 1075064400 * (long long)1000000000,
	    1075064400 * (long long)1000000000);
	exit(0);
}
