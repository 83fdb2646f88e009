/* dtrace-utils' aggs/tst.stddev2.d as tests/unit/test_dtfmt.c reads
 * it: twelve stddev()s of two values each, printa("%9@x") of each.  The
 * expected output is its .r file without the first, empty line (see
 * docs/internals.md, "out/dtfmt.c"), with the blank line dtrace prints
 * at exit. */
#pragma D option quiet

BEGIN
{
	@s0 = stddev(0x0);
	@s0 = stddev(0x0);
	@s1 = stddev(0x10);
	@s1 = stddev(0x20);
	@s2 = stddev(0x100);
	@s2 = stddev(0x200);
	@s3 = stddev(0x1000);
	@s3 = stddev(0x2000);
	@s4 = stddev(0x10000);
	@s4 = stddev(0x20000);
	@s5 = stddev(0x100000);
	@s5 = stddev(0x200000);
	@s6 = stddev(0x1000000);
	@s6 = stddev(0x2000000);
	@s7 = stddev(0x10000000);
	@s7 = stddev(0x20000000);
	@s8 = stddev(0x20000000);
	@s8 = stddev(0x40000000);
	@s9 = stddev(0x40000000);
	@s9 = stddev(0x80000000);
	@s10 = stddev(0x80000000);
	@s10 = stddev(0x100000000);
	@s11 = stddev(0x100000000);
	@s11 = stddev(0x200000000);
	printa("%9@x\n", @s0);
	printa("%9@x\n", @s1);
	printa("%9@x\n", @s2);
	printa("%9@x\n", @s3);
	printa("%9@x\n", @s4);
	printa("%9@x\n", @s5);
	printa("%9@x\n", @s6);
	printa("%9@x\n", @s7);
	printa("%9@x\n", @s8);
	printa("%9@x\n", @s9);
	printa("%9@x\n", @s10);
	printa("%9@x\n", @s11);
	exit(0);
}
