/* sema_loop.c - what 0.26 lets a probe do with a map's values: read
 * an aggregation (count(), sum(), min(), max(), avg(): merged over the
 * CPUs in BPF, cg_loop.c) and loop over the entries, for ($kv : @m). */
#include "sema/sema_int.h"

bool sema_agg_readable(const struct sema *s, const struct mapinfo *m)
{
	if (s->c->dialect_017)
		return false;
	switch (m->agg) {
	case AGG_COUNT: case AGG_SUM: case AGG_MIN: case AGG_MAX: case AGG_AVG:
		return true;
	default:
		return false;
	}
}

/* count() is unsigned, sum() as what it adds, min(), max() and avg()
 * signed (as they compare and divide). */
struct type *sema_agg_value(const struct mapinfo *m)
{
	if (m->agg == AGG_COUNT)
		return ty_int(8, false);
	if (m->agg == AGG_SUM && m->val)
		return ty_int(8, m->val->is_signed);
	return ty_int(8, true);
}

/* The types of a loop's ($key, $value) over M: several keys are one
 * tuple (laid out as a tuple value, not as the map's key slots), an
 * aggregation its merged value.  NULL when the map cannot be looped
 * over (said at AT). */
static struct type *entry_type(struct sema *s, struct mapinfo *m,
			       struct node *at)
{
	struct type *e[2];

	if (m->nkeys < 0 || (m->agg == AGG_NONE && !m->val)) {
		if (s->report)
			ERR(s, at->loc, E_UNDEF, "%s is looped over but never assigned",
			    m->name);
		return NULL;
	}
	if (m->nkeys == 0) {
		ERR(s, at->loc, E_MAP,
		    "%s has no keys: a for loop takes a map with keys", m->name);
		return NULL;
	}
	if (m->agg == AGG_STATS || m->agg == AGG_STDDEV ||
	    agg_bucketed(m->agg)) {
		ERR(s, at->loc, E_TYPE,
		    "%s holds %s, whose entries a for loop cannot take",
		    m->name, sema_agg_name(m->agg));
		return NULL;
	}
	e[0] = m->key;
	if (m->key->kind == TY_TUPLE && m->key->slots)
		e[0] = ty_tuple(&s->c->arena, m->key->elem, m->key->nelem);
	e[1] = m->agg == AGG_NONE ? m->val : sema_agg_value(m);
	return ty_tuple(&s->c->arena, e, 2);
}

/* for ($kv : @m): the map (without keys) and the loop variable, a
 * (key, value) tuple of the loop's own, whose name hides a variable of
 * the probe until the loop ends (sema_for_map_end()); the caller checks
 * the body between the two.  Returns what the name meant before. */
struct var *sema_for_map(struct sema *s, struct node *n)
{
	struct node *mn = n->b;
	struct var *v = n->a->var, *outer = sema_var_find(s, n->a->name);
	struct mapinfo *m;
	struct type *t = NULL, *u;

	if (mn->nargs) {
		ERR(s, mn->loc, E_MAP,
		    "a for loop takes the map without keys: for (%s : %s)",
		    n->a->name, mn->name);
		mn->ty = &ty_error;
	} else {
		m = sema_map_get(s, mn);
		m->read = true;
		mn->ty = &ty_mapref;
		t = entry_type(s, m, mn);
	}
	if (!t)
		t = &ty_error;
	if (s->scoped) {
		/* 0.26: a variable of the loop's own scope, found again in
		 * each pass by its declaring node (sema_scope.c) */
		sema_loop_var(s, n->a);
		v = sema_var_lookup(s, n->a);
		outer = NULL;
	}
	if (!v) {
		v = sema_var_new(s, n->a, t);	/* the first pass */
	} else {
		if (!s->scoped)
			strmap_put(&s->pi->var_names, &s->c->arena, v->name, v);
		if (is_err(v->ty) || is_err(t))
			v->ty = is_err(t) ? v->ty : t;
		else if ((u = sema_unify(s, v->ty, t)))
			v->ty = u;
	}
	v->defined = true;
	n->a->var = v;
	n->a->ty = v->ty;
	return outer;
}

void sema_for_map_end(struct sema *s, struct node *n, struct var *outer)
{
	if (s->scoped)	/* the loop's scope ends it */
		return;
	strmap_put(&s->pi->var_names, &s->c->arena, n->a->name, outer);
}
