/* basename() and dirname() as DTrace's (and basename(1), dirname(1)):
 * "" and a name alone have dirname ".", slashes alone are "/",
 * trailing slashes do not count. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", basename("/"), dirname("/"));
	printf("[%s] [%s]\n", basename(""), dirname(""));
	printf("[%s] [%s]\n", basename("a"), dirname("a"));
	printf("[%s] [%s]\n", basename("a/"), dirname("a/"));
	printf("[%s] [%s]\n", basename("/a"), dirname("/a"));
	printf("[%s] [%s]\n", basename("/a/b/"), dirname("/a/b/"));
	printf("[%s] [%s]\n", basename("//a//b//"), dirname("//a//b//"));
	printf("[%s] [%s]\n", basename("///"), dirname("///"));
	p = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	printf("[%s] [%s]\n", basename(p), dirname(p));
	printf("[%s]\n", dirname(dirname(p)));
	exit(0);
}
