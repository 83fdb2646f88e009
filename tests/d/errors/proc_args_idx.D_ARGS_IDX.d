proc:::create
{
	trace(args[3]);
}
