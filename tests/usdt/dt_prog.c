/* dt_prog.c - fires the probes of dt_provider.d through the header
 * `sonde dtrace -C -h` wrote; writes to argv[1] how often each guarded
 * probe found itself enabled.  Used by tests/run/usdt_dtrace.sh. */
#include <stdio.h>
#include <string.h>

#include "dt_provider.h"

int main(int argc, char **argv)
{
	char item[16];
	int shipped = 0, low = 0;
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;

	if (!out)
		return 1;
	strcpy(item, "widget");
	for (unsigned i = 1; i <= 2; i++) {
		SHOP_ORDER_PLACED(i, item, -1);
		if (SHOP_ORDER_SHIPPED_ENABLED()) {
			shipped++;
			SHOP_ORDER_SHIPPED(i, 1500u * i);
		}
		SHOP_AUDIT();
		SHOP_MANY(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
		if (STOCK_LOW_ENABLED()) {
			low++;
			STOCK_LOW(item, -(long)i);
		}
	}
	fprintf(out, "shipped %d low %d item %s\n", shipped, low, item);
	return 0;
}
