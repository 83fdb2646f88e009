BEGIN
{
	$pid++;
}
