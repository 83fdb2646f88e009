/* lib_sdt.c - a shared library with probes, one guarded by a semaphore
 * of the library's own.  Built by tests/run/usdt_shlib.sh and
 * usdt_pid.sh as libsondetest.so, used by lib_main.c. */
#include <sonde/sdt.h>

SONDE_SEMAPHORE(libprov, guarded);

int lib_work(int x)
{
	SONDE_PROBE(libprov, work, x, x * 2);
	if (SONDE_ENABLED(libprov, guarded)) {
		SONDE_PROBE_SEM(libprov, guarded, x);
		return 1;
	}
	return 0;
}
