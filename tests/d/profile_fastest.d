/* the fastest intervals dtrace offers: 200 microseconds, 5000 hz */
#pragma D option quiet
profile-200us, tick-5000hz
{
	n[probename]++;
}
tick-100ms
/n["profile-200us"] > 0 && n["tick-5000hz"] > 0/
{
	printf("both fired\n");
	exit(0);
}
