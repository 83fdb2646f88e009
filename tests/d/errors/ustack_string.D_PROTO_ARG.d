BEGIN
{
	ustack("frames");
}
