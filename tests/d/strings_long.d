/* Every string subroutine in one clause on strings of the largest
 * size sonde gives D (strsize=1024, doubled by strjoin until cut): the
 * verifier must take the loops over them. */
#pragma D option quiet
#pragma D option strsize=1024

BEGIN
{
	a = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	b = strjoin(a, a);
	b = strjoin(b, b);
	b = strjoin(b, b);
	b = strjoin(b, b);
	b = strjoin(b, b);
	c = strjoin(b, b);
	printf("%d %d %d\n", strlen(b), strlen(c), strlen(strjoin(c, "x")));
	printf("%d %d %d %d\n", index(c, "libc"), rindex(c, "libc"),
	    index(c, b), rindex(c, b));
	printf("%d %d\n", index(c, "nope"), rindex(c, substr(c, 1000)));
	printf("[%s] [%s]\n", basename(c), substr(dirname(c), 1000));
	printf("[%s] [%s]\n", strrchr(c, 'l'), substr(strchr(c, '.'), 1000));
	printf("[%s] [%s]\n", substr(toupper(c), -10), substr(tolower(c), 0, 10));
	printf("[%s]\n", lltostr(strlen(c), 2));
	printf("[%s] [%s]\n", strtok(c, "/"), strtok(NULL, "/"));
	exit(0);
}
