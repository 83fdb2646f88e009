/* strtok(): the delimiters at the start skipped, the token up to the
 * next; NULL goes on with what the last call left; none left is D's
 * NULL, printed as "". */
#pragma D option quiet
BEGIN
{
	printf("[%s]", strtok("  a,b;;c  ", " ,;"));
	printf("[%s]", strtok(NULL, " ,;"));
	printf("[%s]", strtok(NULL, ";"));
	printf("[%s]", strtok(NULL, " ,;"));
	printf("[%s]\n", strtok(NULL, " ,;"));
	printf("[%s] [%s]\n", strtok("", ","), strtok(NULL, ","));
	printf("[%s] [%s]\n", strtok(",,,", ","), strtok("abc", ""));
	s = "/usr/local/bin";
	printf("[%s]", strtok(s, "/"));
	printf("[%s]", strtok(NULL, "/"));
	printf("[%s]", strtok(NULL, "/"));
	printf("[%s]\n", strtok(NULL, "/"));
	exit(0);
}
