/* BEGIN and END have no arguments: arg0..arg9 read 0 there; timestamp
 * is read once per firing (dtrace's tst.timestamp-bug31632630); caller
 * is where the probed code returns to, the kernel's code here, whose
 * module mod() names. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", arg0, arg1, arg9);
	this->a = timestamp;
	this->b = timestamp;
	printf("same timestamp: %d\n", this->a == this->b);
	printf("caller: %d\n", caller != 0);
	trace(mod(caller));
	printf("|\n");
	exit(0);
}

END
{
	printf("%d\n", arg3);
}
