/* normalize(@a, n) divides what printa() and the exit print show from
 * then on; denormalize(@a) undoes it; aggsortkey orders rows by key. */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@a = sum(3800);
	@b["z"] = count();
	@b["a"] = count();
	@b["a"] = count();
	normalize(@a, 2);
	printa(@a);
	denormalize(@a);
	printa(@a);
	normalize(@b, 2);
	exit(0);
}
