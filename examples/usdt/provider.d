/*
 * provider.d - the probes of the example program, in DTrace's provider
 * language.  `sonde dtrace -h` turns it into provider.h; a probe keeps
 * its name, so request__start is traced as
 * usdt:./program:myapp:request__start (request-start, DTrace's
 * spelling, works too).
 */
provider myapp {
	/* a request arrives: its number and path */
	probe request__start(int id, const char *path);
	/* it is answered: number, HTTP status, time taken in ns */
	probe request__done(int id, int status, uint64_t ns);
	/* cache counters, computed only while someone traces them */
	probe cache__stats(uint64_t hits, uint64_t misses);
};
