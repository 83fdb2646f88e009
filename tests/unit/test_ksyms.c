/* test_ksyms.c - unit tests for src/catalog/ksyms.c on a made-up /proc/kallsyms.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "catalog/ksyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* ksyms_find(ADDR) must name WANT (NULL: no symbol) at offset OFF. */
static void find(const struct ksyms *k, uint64_t addr, const char *want,
		 uint64_t off)
{
	const struct ksym *s = ksyms_find(k, addr);

	if ((!s && !want) ||
	    (s && want && !strcmp(s->name, want) && addr - s->addr == off)) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL find(0x%llx): want %s+%llu, got %s+%llu\n",
	       (unsigned long long)addr, want ? want : "(none)",
	       (unsigned long long)off, s ? s->name : "(none)",
	       s ? (unsigned long long)(addr - s->addr) : 0ULL);
}

int main(void)
{
	/* Not sorted, with aliases, a module symbol, per-CPU offsets and an
	 * absolute 0 that must be skipped, and a malformed line. */
	static const char text[] =
		"ffffffff81000100 T second_func\n"
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 D cpu_number\n"
		"ffffffff81000000 T srso_alias_untrain_ret\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"not a symbol line\n"
		"ffffffffc0001000 t mod_func\t[some_mod]\n"
		"ffffffff81000200 t last_core_func";
	char path[] = "/tmp/sonde-test-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	struct ksyms k;

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1)) {
		perror("test_ksyms: temporary file");
		return 1;
	}
	close(fd);
	check(ksyms_load(&k, path) == 0, "ksyms_load");
	unlink(path);
	check(k.n == 6, "6 symbols kept (per-CPU, absolute, malformed skipped)");

	find(&k, 0xffffffff80ffffffULL, NULL, 0);
	find(&k, 0x1000, NULL, 0);		/* a per-CPU offset */
	find(&k, 0xffff888000001000ULL, NULL, 0);	/* the direct map */
	/* aliases: the first one listed */
	find(&k, 0xffffffff81000000ULL, "srso_alias_untrain_ret", 0);
	find(&k, 0xffffffff810000ffULL, "srso_alias_untrain_ret", 255);
	find(&k, 0xffffffff81000100ULL, "second_func", 0);
	find(&k, 0xffffffff81000205ULL, "last_core_func", 5);
	/* the module name after the tab is not part of the symbol */
	find(&k, 0xffffffffc0001010ULL, "mod_func", 16);
	find(&k, 0xffffffffffffff00ULL, "mod_func", 0xffffffffffffff00ULL -
					 0xffffffffc0001000ULL);
	ksyms_free(&k);
	check(k.n == 0 && k.v == NULL, "ksyms_free");

	/* Addresses read as 0 without CAP_SYSLOG: nothing to go by. */
	{
		static const char hidden[] = "0000000000000000 T _stext\n"
					     "0000000000000000 T _text\n";
		char p2[] = "/tmp/sonde-test-kallsyms.XXXXXX";
		int fd2 = mkstemp(p2);

		if (fd2 < 0 || write(fd2, hidden, sizeof(hidden) - 1) < 0)
			return 1;
		close(fd2);
		check(ksyms_load(&k, p2) == -EPERM, "zero addresses: -EPERM");
		unlink(p2);
	}
	check(ksyms_load(&k, "/nonexistent/kallsyms") == -ENOENT,
	      "missing file: -ENOENT");

	return check_summary();
}
