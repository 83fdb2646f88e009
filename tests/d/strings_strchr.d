/* strchr() and strrchr(): the string from the first or last such
 * character on, and D's NULL, printed as "", when there is none. */
#pragma D option quiet

BEGIN
{
	s = "/usr/local/bin";
	printf("[%s] [%s]\n", strchr(s, 'l'), strrchr(s, 'l'));
	printf("[%s] [%s]\n", strchr(s, '/'), strrchr(s, '/'));
	printf("[%s] [%s]\n", strchr(s, 'z'), strrchr(s, 'z'));
	printf("[%s] [%s]\n", strchr("", 'a'), strrchr("a", 'a'));
	c = 'n';
	printf("[%s] [%s]\n", strchr(s, c), strrchr(s, c - 2));
	exit(0);
}
