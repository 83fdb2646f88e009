/* #pragma D error stops the compile with its words */
#pragma D error "not on this system"
BEGIN
{
	exit(0);
}
