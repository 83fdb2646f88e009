/* toupper() and tolower() change ASCII letters only. */
#pragma D option quiet

BEGIN
{
	s = "Hello, World! 123 [az] {AZ} @`";
	printf("[%s]\n[%s]\n", toupper(s), tolower(s));
	printf("[%s] [%s]\n", toupper(""), tolower(toupper("mIxEd")));
	exit(0);
}
