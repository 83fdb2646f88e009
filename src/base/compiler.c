/* compiler.c - the compile entry: text to assembled programs. */
#include "base/compiler.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/btf.h"
#include "lang/parse.h"
#include "sema/sema.h"

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
	c->map_keys_max = 4096;
}

int compiler_stack_map(struct compiler *c, int depth)
{
	for (int i = 0; i < c->nstack_maps; i++)
		if (c->stack_depths[i] == depth)
			return i;
	if (!c->stack_depths)
		c->stack_depths = arena_alloc(&c->arena, sizeof(int) *
					      KSTACK_MAX_DEPTH);
	c->stack_depths[c->nstack_maps] = depth;
	return c->nstack_maps++;
}

void compiler_free(struct compiler *c)
{
	btf_release(c);
	free(c->stypes);
	free(c->enums);
	c->stypes = NULL;
	c->enums = NULL;
	memset(&c->stype_names, 0, sizeof(c->stype_names));
	memset(&c->enum_names, 0, sizeof(c->enum_names));
	free(c->maps);
	free(c->events);
	free(c->progs);
	free(c->read_sites);
	c->read_sites = NULL;
	arena_free(&c->arena);
	c->maps = NULL;
	c->events = NULL;
	c->progs = NULL;
}
