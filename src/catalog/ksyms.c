/* ksyms.c - /proc/kallsyms, sorted by address for binary search. */
#include "catalog/ksyms.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Symbols at one address keep the file's order (their names lie in it
 * in order), so lookups are repeatable. */
static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

int ksyms_load(struct ksyms *k, const char *path)
{
	char *text, *p, *end;
	size_t len, cap = 0;
	int rc;

	memset(k, 0, sizeof(*k));
	rc = read_file(path ? path : "/proc/kallsyms", &text, &len);
	if (rc)
		return rc;
	k->names = text;
	end = text + len;
	for (p = text; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line = p, *sp1, *sp2, *name, *tab;
		uint64_t addr;

		if (nl)
			*nl = 0;
		p = nl ? nl + 1 : end;
		/* "ffffffff81000000 T _stext\t[module]" */
		addr = strtoull(line, &sp1, 16);
		if (sp1 == line || *sp1 != ' ')
			continue;
		sp2 = strchr(sp1 + 1, ' ');
		if (!sp2)
			continue;
		name = sp2 + 1;
		tab = strchr(name, '\t');
		if (tab)
			*tab = 0;
		/* Below the kernel's half of the address space are per-CPU
		 * offsets and absolute values, not places: bcc skips them
		 * too, so that ksym(a heap address) is not "some per-CPU
		 * variable + 18 EiB". */
		if (!addr || !*name || (sizeof(long) == 8 && !(addr >> 63)))
			continue;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 65536;
			k->v = xrealloc(k->v, sizeof(*k->v) * cap);
		}
		k->v[k->n].addr = addr;
		k->v[k->n].name = name;
		k->n++;
	}
	if (k->n > 1)
		qsort(k->v, k->n, sizeof(*k->v), by_addr);
	if (!k->n) {
		/* Addresses read as 0 without CAP_SYSLOG. */
		ksyms_free(k);
		return -EPERM;
	}
	return 0;
}

void ksyms_free(struct ksyms *k)
{
	free(k->v);
	free(k->names);
	memset(k, 0, sizeof(*k));
}

const struct ksym *ksyms_find(const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Of several symbols at one address, the first in /proc/kallsyms:
	 * usually the function (srso_alias_untrain_ret, irq_entries_start)
	 * rather than a section marker (_stext, __irqentry_text_start). */
	while (lo > 0 && k->v[lo - 1].addr == k->v[lo].addr)
		lo--;
	return &k->v[lo];
}

int ksyms_addr_of(const char *path, const char *name, uint64_t *addr)
{
	char *text, *p, *end;
	size_t len, nl_name = strlen(name);
	bool hidden = true;
	int rc;

	rc = read_file(path ? path : "/proc/kallsyms", &text, &len);
	if (rc)
		return rc;
	rc = -ENOENT;
	end = text + len;
	for (p = text; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end, *sp, *sym;
		uint64_t a = strtoull(p, &sp, 16);

		/* "ffffffff81000000 T _stext\t[module]" */
		if (sp != p && *sp == ' ' && sp + 3 < le && sp[2] == ' ') {
			sym = sp + 3;
			if (a)
				hidden = false;
			if ((size_t)(le - sym) >= nl_name &&
			    !memcmp(sym, name, nl_name) &&
			    (sym + nl_name == le || sym[nl_name] == '\t')) {
				*addr = a;
				rc = a ? 0 : -EPERM;
				break;
			}
		}
		p = nl ? nl + 1 : end;
	}
	free(text);
	if (rc == -ENOENT && hidden && len)
		rc = -EPERM;
	return rc;
}
