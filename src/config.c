/* config.c - the config variables, from the environment and from the
 * script's config block.  Each is one row: its name, the older
 * environment variable sonde read, the values it takes and the field
 * of struct compiler it sets (none: checked and accepted, no
 * behaviour yet). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang/ast.h"
#include "lang/lex.h"

enum cfg_kind { CK_INT, CK_BOOL, CK_WORD, CK_STRING };

#define NOFIELD ((size_t)-1)
#define F(field) offsetof(struct compiler, field)

struct cfgvar {
	const char *name;
	const char *old_env;	/* sonde's earlier name, or NULL */
	bool old_inverted;	/* BPFTRACE_NO_CPP_DEMANGLE=1 is false */
	enum cfg_kind kind;
	int lo, hi;		/* CK_INT */
	const char *const *words;	/* CK_WORD: the index is the value;
					 * CK_STRING: the ones accepted */
	const char *expect;	/* CK_WORD, CK_STRING: for messages */
	size_t off;
};

static const char *const cache_modes[] = { "PER_PROGRAM", "PER_PID", "NONE",
					   NULL };
static const char *const licenses[] = {
	"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
	"Dual MIT/GPL", "Dual MPL/GPL", NULL };
static const char *const missing[] = { "error", "warn", "ignore", NULL };
static const char *const stack_modes[] = { "bpftrace", "perf", "raw",
					    "build_id", NULL };
/* the same words, the default first (compiler fields start at 0) */
static const char *const unstable_warn[] = { "warn", "error", "enable", NULL };

static const struct cfgvar vars[] = {
	{ "cache_user_symbols", NULL, false, CK_WORD, 0, 0, cache_modes,
	  "PER_PROGRAM, PER_PID or NONE", NOFIELD },
	{ "cpp_demangle", "BPFTRACE_NO_CPP_DEMANGLE", true, CK_BOOL, 0, 0,
	  NULL, NULL, F(cpp_demangle) },
	{ "dwarf_unwind", NULL, false, CK_BOOL, 0, 0, NULL, NULL,
	  F(dwarf_unwind) },
	{ "lazy_symbolication", NULL, false, CK_BOOL, 0, 0, NULL, NULL,
	  NOFIELD },
	{ "license", NULL, false, CK_STRING, 0, 0, licenses,
	  "GPL, GPL v2, GPL and additional rights, Dual BSD/GPL, Dual MIT/GPL or Dual MPL/GPL",
	  NOFIELD },
	{ "log_size", NULL, false, CK_INT, 1, 1 << 30, NULL, NULL, NOFIELD },
	{ "max_bpf_progs", NULL, false, CK_INT, 1, 1 << 30, NULL, NULL,
	  F(max_progs) },
	{ "max_cat_bytes", "BPFTRACE_CAT_BYTES_MAX", false, CK_INT, 0, 1 << 30,
	  NULL, NULL, F(cat_bytes_max) },
	{ "max_map_keys", "BPFTRACE_MAP_KEYS_MAX", false, CK_INT, 1, 1 << 24,
	  NULL, NULL, F(map_keys_max) },
	{ "max_probes", NULL, false, CK_INT, 1, 1 << 30, NULL, NULL,
	  F(max_probes) },
	{ "max_strlen", "BPFTRACE_STRLEN", false, CK_INT, 1, 4096, NULL, NULL,
	  F(strlen_) },
	{ "missing_probes", NULL, false, CK_WORD, 0, 0, missing,
	  "error, warn or ignore", F(missing_probes) },
	{ "on_stack_limit", NULL, false, CK_INT, 0, 512, NULL, NULL, NOFIELD },
	{ "perf_rb_pages", NULL, false, CK_INT, 1, 1 << 18, NULL, NULL,
	  F(rb_pages) },
	{ "print_maps_on_exit", NULL, false, CK_BOOL, 0, 0, NULL, NULL,
	  F(print_maps) },
	{ "show_debug_info", NULL, false, CK_BOOL, 0, 0, NULL, NULL,
	  F(show_debug_info) },
	{ "stack_mode", NULL, false, CK_WORD, 0, 0, stack_modes,
	  "bpftrace, perf, raw or build_id", F(stack_mode) },
	{ "str_trunc_trailer", NULL, false, CK_STRING, 0, 0, NULL, NULL,
	  F(trunc_trailer) },
	{ "unstable_dw_ustack", NULL, false, CK_WORD, 0, 0, unstable_warn,
	  "error, warn or enable", F(unstable_dw_ustack) },
	{ "unstable_tseries", NULL, false, CK_WORD, 0, 0, unstable_warn,
	  "error, warn or enable", F(unstable_tseries) },
};

#define NVARS ((int)(sizeof(vars) / sizeof(vars[0])))

static void set(struct compiler *c, const struct cfgvar *v, int value)
{
	if (v->off != NOFIELD && v->kind != CK_STRING)
		*(int *)((char *)c + v->off) = value;
}

/* A string variable's TEXT, kept where its field is. */
static void set_text(struct compiler *c, const struct cfgvar *v,
		     const char *text)
{
	if (v->off != NOFIELD && v->kind == CK_STRING)
		*(const char **)((char *)c + v->off) = arena_strdup(&c->arena, text);
}

static int word_index(const char *const *words, const char *s)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

/* What V takes, for messages: "a number in 1..4096". */
static void takes(const struct cfgvar *v, char *buf, size_t n)
{
	switch (v->kind) {
	case CK_INT:
		snprintf(buf, n, "a number in %d..%d", v->lo, v->hi);
		break;
	case CK_BOOL:
		snprintf(buf, n, "true or false");
		break;
	case CK_WORD:
		snprintf(buf, n, "one of %s", v->expect);
		break;
	case CK_STRING:
		snprintf(buf, n, "one of %s", v->expect ? v->expect : "");
		break;
	}
}

/* TEXT (a word, a string or a number's digits) as V's value in *OUT;
 * -1 if V does not take it.  IS_INT: it was written as a number. */
static int value_of(const struct cfgvar *v, const char *text, bool is_int,
		    long n, int *out)
{
	switch (v->kind) {
	case CK_INT:
		if (!is_int || n < v->lo || n > v->hi)
			return -1;
		*out = (int)n;
		return 0;
	case CK_BOOL:
		if (is_int ? n == 0 || n == 1 : !strcmp(text, "true") ||
						!strcmp(text, "false")) {
			*out = is_int ? (int)n : !strcmp(text, "true");
			return 0;
		}
		return -1;
	case CK_WORD:
		*out = is_int ? -1 : word_index(v->words, text);
		return *out < 0 ? -1 : 0;
	case CK_STRING:
		*out = 0;
		/* a number is its digits' text where any text goes */
		return (is_int && v->words) ||
		       (v->words && word_index(v->words, text) < 0) ? -1 : 0;
	}
	return -1;
}

/* An environment variable's text as V's value. */
static int env_value(const struct cfgvar *v, const char *env,
		     const char *text, int *out)
{
	char *end, buf[200];
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (!value_of(v, text, !errno && end != text && !*end, n, out))
		return 0;
	takes(v, buf, sizeof(buf));
	if (v->kind == CK_WORD) {	/* "one of bpftrace, perf, raw" */
		size_t k = (size_t)snprintf(buf, sizeof(buf), "one of");

		for (int i = 0; v->words[i] && k < sizeof(buf); i++)
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s %s",
					      i ? "," : "", v->words[i]);
	}
	fprintf(stderr, "sonde: %s=%s is not %s\n", env, text, buf);
	return -1;
}

int config_env(struct compiler *c)
{
	for (int i = 0; i < NVARS; i++) {
		const struct cfgvar *v = &vars[i];
		char env[64];
		const char *text;
		int value;

		snprintf(env, sizeof(env), "BPFTRACE_%s", v->name);
		for (char *q = env; *q; q++)
			*q = (char)toupper((unsigned char)*q);
		text = getenv(env);
		if ((!text || !*text) && v->old_env) {
			snprintf(env, sizeof(env), "%s", v->old_env);
			text = getenv(env);
			if (text && *text && v->old_inverted) {
				struct cfgvar old = *v;

				old.kind = CK_INT, old.lo = 0, old.hi = 1;
				if (env_value(&old, env, text, &value))
					return -1;
				set(c, v, !value);
				c->config_env |= 1u << i;
				continue;
			}
		}
		/* set and empty: a string's value (no trailer) */
		if (!text || (!*text && (v->kind != CK_STRING || v->off == NOFIELD)))
			continue;
		if (v->kind != CK_STRING || v->off == NOFIELD) {
			if (env_value(v, env, text, &value))
				return -1;
			set(c, v, value);
		}
		set_text(c, v, text);
		c->config_env |= 1u << i;
	}
	return 0;
}

/* bpftrace's settings that only its environment gives, not a config
 * block (bpftrace(8), "Environment Variables"). */
static bool env_only(const char *name)
{
	static const char *const names[] = {
		"btf", "kernel_build", "kernel_source", "vmlinux", "color",
		"debug_output",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* NAME in one of its spellings: max_strlen, MAX_STRLEN,
 * BPFTRACE_MAX_STRLEN; its row, or -1. */
static int lookup(const char *name)
{
	bool upper = false, lower = false;

	if (!strncmp(name, "BPFTRACE_", 9))
		name += 9;
	for (const char *q = name; *q; q++) {
		upper |= isupper((unsigned char)*q) != 0;
		lower |= islower((unsigned char)*q) != 0;
	}
	if (upper && lower)
		return -1;
	for (int i = 0; i < NVARS; i++)
		if (!strcasecmp(name, vars[i].name))
			return i;
	return -1;
}

int config_apply(struct compiler *c, const struct config_item *items)
{
	uint32_t seen = 0;
	int errs = 0;

	for (const struct config_item *it = items; it; it = it->next) {
		int i = lookup(it->name), value;
		const struct cfgvar *v;
		char buf[200];

		if (i < 0 && env_only(it->name)) {
			char up[64];
			size_t k;

			for (k = 0; it->name[k] && k + 1 < sizeof(up); k++)
				up[k] = (char)toupper((unsigned char)it->name[k]);
			up[k] = 0;
			diag_error(&c->diag, it->loc, E_CONFIG,
				   "%s can only be set as an environment variable (BPFTRACE_%s)",
				   it->name, up);
			errs++;
			continue;
		}
		if (i < 0) {
			diag_error(&c->diag, it->loc, E_CONFIG,
				   "unknown config variable '%s'", it->name);
			errs++;
			continue;
		}
		v = &vars[i];
		if (seen & (1u << i)) {
			diag_error(&c->diag, it->loc, E_CONFIG,
				   "%s is set twice in the config block",
				   v->name);
			errs++;
			continue;
		}
		seen |= 1u << i;
		if (value_of(v, it->text, it->kind == T_INT,
			     it->ival > (uint64_t)1 << 31 ? -1 : (long)it->ival,
			     &value)) {
			takes(v, buf, sizeof(buf));
			diag_error(&c->diag, it->vloc, E_CONFIG,
				   "%s takes %s", v->name, buf);
			errs++;
			continue;
		}
		/* the environment wins over the script */
		if (!(c->config_env & (1u << i))) {
			set(c, v, value);
			set_text(c, v, it->kind == T_INT ?
				 arena_printf(&c->arena, "%llu",
					      (unsigned long long)it->ival) :
				 it->text);
		}
	}
	return errs ? -1 : 0;
}
