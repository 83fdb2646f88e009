/* The order of printa()'s rows: aggsortrev reverses it, aggsortpos
 * sorts joined aggregations by that one's value first, aggsortkey by
 * key (from key aggsortkeypos on); setopt() changes them as its record
 * is read, and says what it does not know. */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@a[1, "z"] = sum(30);
	@a[2, "y"] = sum(10);
	@a[3, "x"] = sum(20);
	@b[1, "z"] = sum(1);
	@b[2, "y"] = sum(3);
	@b[3, "x"] = sum(2);
	printa("rev %d %s %@d\n", @a);
	setopt("aggsortrev", "0");
	printa("by @a %d %s %@d %@d\n", @a, @b);
	setopt("aggsortpos", "1");
	printa("by @b %d %s %@d %@d\n", @a, @b);
	setopt("aggsortkey");
	setopt("aggsortkeypos", "1");
	printa("by the string %d %s %@d\n", @a);
	setopt("nosuchoption", "1");
	exit(0);
}
