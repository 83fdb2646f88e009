/* dtrace-utils' aggs/tst.llquantize_basic.d, its cases rebuilt from
 * tests/unit/test_dtfmt.c (one aggregation and one BEGIN clause each):
 * llquantize() with increments, every layout (steps below, at and above
 * the factor, low magnitude 0 with its ghost buckets), printa() of each.
 * The expected output is its .r file. */
#pragma D option quiet

BEGIN
{
	printf("basicA (steps<factor)\n");
	@a = llquantize(-20, 4, 0, 1, 2, 80);
	@a = llquantize(-16, 4, 0, 1, 2, 84);
	@a = llquantize(-12, 4, 0, 1, 2, 88);
	@a = llquantize(-8, 4, 0, 1, 2, 92);
	@a = llquantize(-6, 4, 0, 1, 2, 94);
	@a = llquantize(-5, 4, 0, 1, 2, 95);
	@a = llquantize(-4, 4, 0, 1, 2, 96);
	@a = llquantize(-3, 4, 0, 1, 2, 97);
	@a = llquantize(-2, 4, 0, 1, 2, 98);
	@a = llquantize(-1, 4, 0, 1, 2, 99);
	@a = llquantize(0, 4, 0, 1, 2, 100);
	@a = llquantize(1, 4, 0, 1, 2, 101);
	@a = llquantize(2, 4, 0, 1, 2, 102);
	@a = llquantize(3, 4, 0, 1, 2, 103);
	@a = llquantize(4, 4, 0, 1, 2, 104);
	@a = llquantize(5, 4, 0, 1, 2, 105);
	@a = llquantize(6, 4, 0, 1, 2, 106);
	@a = llquantize(8, 4, 0, 1, 2, 108);
	@a = llquantize(12, 4, 0, 1, 2, 112);
	@a = llquantize(16, 4, 0, 1, 2, 116);
	@a = llquantize(20, 4, 0, 1, 2, 120);
	printa(@a);
}

BEGIN
{
	printf("basicB (steps==factor)\n");
	@b = llquantize(-20, 4, 0, 1, 4, 80);
	@b = llquantize(-16, 4, 0, 1, 4, 84);
	@b = llquantize(-12, 4, 0, 1, 4, 88);
	@b = llquantize(-8, 4, 0, 1, 4, 92);
	@b = llquantize(-6, 4, 0, 1, 4, 94);
	@b = llquantize(-5, 4, 0, 1, 4, 95);
	@b = llquantize(-4, 4, 0, 1, 4, 96);
	@b = llquantize(-3, 4, 0, 1, 4, 97);
	@b = llquantize(-2, 4, 0, 1, 4, 98);
	@b = llquantize(-1, 4, 0, 1, 4, 99);
	@b = llquantize(0, 4, 0, 1, 4, 100);
	@b = llquantize(1, 4, 0, 1, 4, 101);
	@b = llquantize(2, 4, 0, 1, 4, 102);
	@b = llquantize(3, 4, 0, 1, 4, 103);
	@b = llquantize(4, 4, 0, 1, 4, 104);
	@b = llquantize(5, 4, 0, 1, 4, 105);
	@b = llquantize(6, 4, 0, 1, 4, 106);
	@b = llquantize(8, 4, 0, 1, 4, 108);
	@b = llquantize(12, 4, 0, 1, 4, 112);
	@b = llquantize(16, 4, 0, 1, 4, 116);
	@b = llquantize(20, 4, 0, 1, 4, 120);
	printa(@b);
}

BEGIN
{
	printf("basicC (steps>factor)\n");
	@c = llquantize(-20, 4, 0, 1, 8, 80);
	@c = llquantize(-16, 4, 0, 1, 8, 84);
	@c = llquantize(-12, 4, 0, 1, 8, 88);
	@c = llquantize(-8, 4, 0, 1, 8, 92);
	@c = llquantize(-6, 4, 0, 1, 8, 94);
	@c = llquantize(-5, 4, 0, 1, 8, 95);
	@c = llquantize(-4, 4, 0, 1, 8, 96);
	@c = llquantize(-3, 4, 0, 1, 8, 97);
	@c = llquantize(-2, 4, 0, 1, 8, 98);
	@c = llquantize(-1, 4, 0, 1, 8, 99);
	@c = llquantize(0, 4, 0, 1, 8, 100);
	@c = llquantize(1, 4, 0, 1, 8, 101);
	@c = llquantize(2, 4, 0, 1, 8, 102);
	@c = llquantize(3, 4, 0, 1, 8, 103);
	@c = llquantize(4, 4, 0, 1, 8, 104);
	@c = llquantize(5, 4, 0, 1, 8, 105);
	@c = llquantize(6, 4, 0, 1, 8, 106);
	@c = llquantize(8, 4, 0, 1, 8, 108);
	@c = llquantize(12, 4, 0, 1, 8, 112);
	@c = llquantize(16, 4, 0, 1, 8, 116);
	@c = llquantize(20, 4, 0, 1, 8, 120);
	printa(@c);
}

BEGIN
{
	printf("basicD (steps>factor and bigger lmag)\n");
	@d = llquantize(-65536, 4, 4, 6, 32, 2);
	@d = llquantize(-16384, 4, 4, 6, 32, 4);
	@d = llquantize(-16383, 4, 4, 6, 32, 8);
	@d = llquantize(-9728, 4, 4, 6, 32, 16);
	@d = llquantize(-9727, 4, 4, 6, 32, 32);
	@d = llquantize(-9216, 4, 4, 6, 32, 64);
	@d = llquantize(-9215, 4, 4, 6, 32, 128);
	@d = llquantize(-8704, 4, 4, 6, 32, 256);
	@d = llquantize(-8703, 4, 4, 6, 32, 512);
	@d = llquantize(-8192, 4, 4, 6, 32, 1024);
	@d = llquantize(-8191, 4, 4, 6, 32, 1024);
	@d = llquantize(-4610, 4, 4, 6, 32, 2048);
	@d = llquantize(-4609, 4, 4, 6, 32, 4096);
	@d = llquantize(-2560, 4, 4, 6, 32, 2048);
	@d = llquantize(-2559, 4, 4, 6, 32, 4096);
	@d = llquantize(-1024, 4, 4, 6, 32, 2048);
	@d = llquantize(-352, 4, 4, 6, 32, 1024);
	@d = llquantize(-351, 4, 4, 6, 32, 512);
	@d = llquantize(-256, 4, 4, 6, 32, 256);
	@d = llquantize(-255, 4, 4, 6, 32, 128);
	@d = llquantize(255, 4, 4, 6, 32, 2);
	@d = llquantize(256, 4, 4, 6, 32, 256);
	@d = llquantize(351, 4, 4, 6, 32, 512);
	@d = llquantize(352, 4, 4, 6, 32, 1024);
	@d = llquantize(1024, 4, 4, 6, 32, 2048);
	@d = llquantize(2559, 4, 4, 6, 32, 4096);
	@d = llquantize(2560, 4, 4, 6, 32, 2048);
	@d = llquantize(4609, 4, 4, 6, 32, 4096);
	@d = llquantize(4610, 4, 4, 6, 32, 2048);
	@d = llquantize(8191, 4, 4, 6, 32, 1024);
	@d = llquantize(8192, 4, 4, 6, 32, 1024);
	@d = llquantize(8703, 4, 4, 6, 32, 512);
	@d = llquantize(8704, 4, 4, 6, 32, 256);
	@d = llquantize(9215, 4, 4, 6, 32, 128);
	@d = llquantize(9216, 4, 4, 6, 32, 64);
	@d = llquantize(9727, 4, 4, 6, 32, 32);
	@d = llquantize(9728, 4, 4, 6, 32, 16);
	@d = llquantize(16383, 4, 4, 6, 32, 8);
	@d = llquantize(16384, 4, 4, 6, 32, 4);
	@d = llquantize(65536, 4, 4, 6, 32, 2);
	printa(@d);
}

BEGIN
{
	printf("zero\n");
	@e = llquantize(0, 2, 0, 1, 2, 1);
	@e = llquantize(0, 2, 0, 1, 2, -1);
	printa(@e);
}

BEGIN
{
	printf("zeroB (lmag==0 && steps>factor)\n");
	@f = llquantize(0, 2, 0, 1, 4, 1);
	@f = llquantize(0, 2, 0, 1, 4, -1);
	printa(@f);
}

BEGIN
{
	printf("posvals\n");
	@g = llquantize(1, 2, 0, 1, 2, 1);
	printa(@g);
}

BEGIN
{
	printf("negvals\n");
	@h = llquantize(2, 2, 0, 1, 2, -1);
	printa(@h);
}

BEGIN
{
	printf("allvals\n");
	@i = llquantize(1, 2, 0, 1, 2, 1);
	@i = llquantize(2, 2, 0, 1, 2, -1);
	printa(@i);
}

BEGIN
{
	printf("singlerangeA\n");
	@j = llquantize(-4, 4, 0, 0, 4, 96);
	@j = llquantize(-3, 4, 0, 0, 4, 97);
	@j = llquantize(-2, 4, 0, 0, 4, 98);
	@j = llquantize(-1, 4, 0, 0, 4, 99);
	@j = llquantize(0, 4, 0, 0, 4, 100);
	@j = llquantize(1, 4, 0, 0, 4, 101);
	@j = llquantize(2, 4, 0, 0, 4, 102);
	@j = llquantize(3, 4, 0, 0, 4, 103);
	@j = llquantize(4, 4, 0, 0, 4, 104);
	printa(@j);
}

BEGIN
{
	printf("singlerangeB\n");
	@k = llquantize(-4, 4, 0, 0, 8, 96);
	@k = llquantize(-3, 4, 0, 0, 8, 97);
	@k = llquantize(-2, 4, 0, 0, 8, 98);
	@k = llquantize(-1, 4, 0, 0, 8, 99);
	@k = llquantize(0, 4, 0, 0, 8, 100);
	@k = llquantize(1, 4, 0, 0, 8, 101);
	@k = llquantize(2, 4, 0, 0, 8, 102);
	@k = llquantize(3, 4, 0, 0, 8, 103);
	@k = llquantize(4, 4, 0, 0, 8, 104);
	printa(@k);
}

BEGIN
{
	printf("straightlog\n");
	@l = llquantize(-100000, 10, 0, 3, 1, 100108);
	@l = llquantize(-10000, 10, 0, 3, 1, 100208);
	@l = llquantize(-1000, 10, 0, 3, 1, 100308);
	@l = llquantize(-100, 10, 0, 3, 1, 100408);
	@l = llquantize(-10, 10, 0, 3, 1, 100508);
	@l = llquantize(-1, 10, 0, 3, 1, 100608);
	@l = llquantize(0, 10, 0, 3, 1, 100708);
	@l = llquantize(1, 10, 0, 3, 1, 100808);
	@l = llquantize(10, 10, 0, 3, 1, 100908);
	@l = llquantize(100, 10, 0, 3, 1, 101008);
	@l = llquantize(1000, 10, 0, 3, 1, 101108);
	@l = llquantize(10000, 10, 0, 3, 1, 101208);
	@l = llquantize(100000, 10, 0, 3, 1, 101308);
	printa(@l);
}

BEGIN
{
	printf("shift\n");
	@m = llquantize(-3, 2, 0, 1, 2, 1);
	@m = llquantize(3, 2, 0, 1, 2, 1);
	printa(@m);
}

BEGIN
{
	printf("ghostbin (lmag==0 && steps>factor); check ghost-bin problem\n");
	@n = llquantize(-1, 2, 0, 1, 4, 1);
	@n = llquantize(1, 2, 0, 1, 4, 1);
	printa(@n);
}

BEGIN
{
	exit(0);
}
