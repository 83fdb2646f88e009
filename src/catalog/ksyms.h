/* ksyms.h - kernel symbols from /proc/kallsyms, loaded once, searched
 * by address. */
#ifndef SONDE_KSYMS_H
#define SONDE_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;
};

struct ksyms {
	struct ksym *v;
	size_t n;
	char *names;		/* one block holding every name */
};

/* Load /proc/kallsyms (or PATH).  Returns 0 or -errno. */
int ksyms_load(struct ksyms *k, const char *path);
void ksyms_free(struct ksyms *k);
/* The symbol containing ADDR (the last one at or below it; of several
 * at one address the first listed), or NULL. */
const struct ksym *ksyms_find(const struct ksyms *k, uint64_t addr);
/* The address of kernel symbol NAME (the first listed, if several),
 * from /proc/kallsyms (or PATH): 0, -ENOENT when there is none, -EPERM
 * when the file hides addresses (no CAP_SYSLOG), or another -errno. */
int ksyms_addr_of(const char *path, const char *name, uint64_t *addr);

#endif
