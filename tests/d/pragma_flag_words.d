/* A flag option takes a number or a word: yes, true, enable(d), on,
 * set, and no, false, disable(d), off, unset, in any case. */
#pragma D option quiet=no
#pragma D option quiet=On
#pragma D option aggsortkey=SET
#pragma D option rawbytes=disabled

BEGIN
{
	printf("quiet\n");
	exit(0);
}
