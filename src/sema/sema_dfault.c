/* sema_dfault.c - D's ERROR clauses: lang/dlower.c copies them into
 * each clause, to run where a fault stops it (bpf/cg.c), their arg0..
 * arg9 made $fault(N), the fault's N-th argument: 1 the clause's probe
 * ID, 2 the action, 3 -1 (DTrace's DIF offset), 4 the fault
 * (DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO), 5 the address.  D only. */
#include "sema/sema_int.h"

struct type *call_dfault(struct sema *s, struct node *n)
{
	int64_t k;

	if (!sema_const_int(s, n->args[0], &k, "$fault's argument"))
		return set(n, &ty_error);
	return set(n, &ty_s64);
}
