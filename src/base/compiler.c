/* compiler.c - the life of struct compiler; compile.c runs the phases. */
#include "base/compiler.h"

#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>

void compiler_init(struct compiler *c, const char *file, const char *src,
		   size_t len)
{
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->srclen = len;
	c->diag.file = file;
	c->diag.src = src;
	c->diag.srclen = len;
	c->diag.out = stderr;
	c->strlen_ = 64;
	c->sleepable_uprobe = -1;
	c->rawtp_cookie = -1;
	c->uprobe_write_ctx = -1;
	c->map_keys_max = 4096;
	c->cat_bytes_max = 10240;
	c->max_probes = 512;
	c->max_progs = 512;
	c->cpp_demangle = 1;
	c->dwarf_unwind = 1;
	c->print_maps = 1;
	c->missing_probes = -1;	/* not set: the dialect's default */
}

void compiler_free(struct compiler *c)
{
	if (c->dwarf_close)
		c->dwarf_close(c);
	c->dwarf = NULL;
	c->dwarf_close = NULL;
	btf__free(c->btf);
	c->btf = NULL;
	free(c->stypes);
	free(c->enums);
	c->stypes = NULL;
	c->enums = NULL;
	memset(&c->stype_names, 0, sizeof(c->stype_names));
	memset(&c->enum_names, 0, sizeof(c->enum_names));
	memset(&c->enum_defs, 0, sizeof(c->enum_defs));
	memset(&c->typedef_names, 0, sizeof(c->typedef_names));
	memset(&c->btf_enums, 0, sizeof(c->btf_enums));
	memset(&c->btf_enum_defs, 0, sizeof(c->btf_enum_defs));
	free(c->maps);
	free(c->events);
	free(c->progs);
	free(c->helper_sites);
	c->helper_sites = NULL;
	arena_free(&c->arena);
	c->maps = NULL;
	c->events = NULL;
	c->progs = NULL;
}
