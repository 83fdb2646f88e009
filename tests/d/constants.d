/* D's constants: character constants of up to 8 characters packed as
 * C packs them, escapes D does not know kept as written (in strings
 * too), shifts by a count out of 0..63 are 0, and the macro variables
 * of the dtrace process ($pid is the process running BEGIN). */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 'a', 'ab', '\?', '\0103');
	printf("%d\n", 'a\bcdefgh');
	printf("%s|%s\n", "x\?y\'z\c", "t\x41\101\"");
	x = 0xffff;
	printf("%x %x %x\n", x << -6, x << 100, x << 4);
	printf("%d %d\n", $pid == pid, $ppid != $pid);
	exit(0);
}
