/* strjoin(): the two strings one after the other, nested, from
 * variables and the probe's names, and as an array's key. */
#pragma D option quiet

BEGIN
{
	a = "foo";
	b = "bar";
	printf("[%s] [%s] [%s]\n", strjoin(a, b), strjoin("", b), strjoin(a, ""));
	printf("[%s]\n", strjoin(strjoin(a, "/"), strjoin(b, "/baz")));
	printf("[%s]\n", strjoin(probeprov, strjoin(":::", probename)));
	k[strjoin(a, b)] = 7;
	printf("%d\n", k["foobar"]);
	exit(0);
}
