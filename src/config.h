/* config.h - the config variables: bpftrace's settings that a script's
 * config block or the environment give (docs/language.md, "Config
 * block"). */
#ifndef SONDE_CONFIG_H
#define SONDE_CONFIG_H

#include "base/compiler.h"

struct config_item;

/* Each variable from its environment variable, BPFTRACE_NAME or the
 * older name sonde read before; -1 after a message on stderr if one is
 * malformed.  What the environment sets, the config block leaves. */
int config_env(struct compiler *c);

/* The script's config block (lang/ast.h); -1 after errors. */
int config_apply(struct compiler *c, const struct config_item *items);

#endif
