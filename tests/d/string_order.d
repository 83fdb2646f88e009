/* D orders strings as strcmp() does (bytes unsigned, a prefix first),
 * across word boundaries and strings of different sizes; a string
 * compared with NULL is compared with "", and NULL stored in a string
 * variable is "". */
#pragma D option quiet

BEGIN
{
	a = "abcdefghij";
	b = "abcdefghik";
	printf("%d %d %d %d\n", a < b, a > b, a <= a, a >= b);
	printf("%d %d %d\n", "ab" < "abc", "abc" < "ab", "b" > "abcdefghijklmnop");
	printf("%d %d %d\n", "" < "a", "Z" < "a", "\xff" > "a");
	printf("%s\n", strjoin("abc", "def") > strjoin("def", "abc") ? "gt" : "le");
	printf("%d %d %d %d\n", execname != NULL, "" == NULL, execname != -1, execname == 5);
	s = "abc";
	s = NULL;
	printf("[%s] %d %d\n", s, s == NULL, "a" > s);
	exit(0);
}
