/* check.h - the pass and fail counters every unit test keeps, check()
 * for a condition, and check_summary() for main's last line. */
#ifndef SONDE_TEST_CHECK_H
#define SONDE_TEST_CHECK_H

#include <stdio.h>

static int npass, nfail;

static inline void check(int ok, const char *what)
{
	if (ok) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL %s\n", what);
}

/* "N passed, M failed"; main's exit status. */
static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}

#endif
