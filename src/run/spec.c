/* spec.c - D's speculations on the user side.  BPF tags each record a
 * clause sends after speculate(id) with the speculation's tag,
 * generation << 8 | id, in the high half of its event id
 * (bpf/cg_spec.c); they arrive here in ring buffer order, from any
 * CPU, and are copied into the list of their id.  commit(id) sends a
 * record with the tag that replays the list through the runtime's
 * handler, as if the records came now; discard(id) one that frees it.
 * A record of a tag already ended (a CPU speculated while another
 * committed) is dropped, not kept for the id's next speculation.  A
 * list keeps at most -x specsize bytes; records past that are dropped
 * and counted, as DTrace counts speculative drops. */
#include "run/tracer.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define SPECSIZE_DEFAULT (4L << 20)

struct spec_rec {
	struct spec_rec *next;
	size_t size;
	uint8_t data[];
};

struct spec_buf {
	struct spec_rec *head, **tail;
	long bytes;
	uint32_t tag;		/* whose records the list holds */
	uint32_t ended;		/* the last tag committed or discarded */
};

static void spec_free(struct spec_buf *b)
{
	while (b->head) {
		struct spec_rec *r = b->head;

		b->head = r->next;
		free(r);
	}
	b->tail = &b->head;
	b->bytes = 0;
}

/* The list of speculation ID (1..SPEC_MAX), all made at the first:
 * an empty list's tail points into the array, which must not move. */
static struct spec_buf *spec_of(struct tracer *t, uint64_t id)
{
	if (!id || id > SPEC_MAX)
		return NULL;
	if (!t->specs) {
		t->specs = xcalloc(SPEC_MAX, sizeof(*t->specs));
		for (int i = 0; i < SPEC_MAX; i++)
			t->specs[i].tail = &t->specs[i].head;
		t->nspecs = SPEC_MAX;
	}
	return &t->specs[id - 1];
}

static void keep(struct tracer *t, struct spec_buf *b, uint64_t id,
		 const uint8_t *rec, size_t size)
{
	long max = t->specsize > 0 ? t->specsize : SPECSIZE_DEFAULT;
	struct spec_rec *r;

	if (b->bytes + (long)size > max) {
		t->spec_drops++;
		return;
	}
	r = xmalloc(sizeof(*r) + size);
	r->next = NULL;
	r->size = size;
	memcpy(r->data, rec, size);
	id &= 0xffffffffu;	/* the event's own id */
	memcpy(r->data, &id, 8);
	*b->tail = r;
	b->tail = &r->next;
	b->bytes += (long)size;
}

bool rt_spec_event(struct tracer *t, uint64_t id, const uint8_t *rec,
		   size_t size, int (*handle)(void *, void *, size_t))
{
	struct spec_buf *b;
	uint64_t tag;

	if (id == EVID_SPEC_COMMIT || id == EVID_SPEC_DISCARD) {
		if (size < 16)
			return true;
		memcpy(&tag, rec + 8, 8);
		b = spec_of(t, tag & 0xff);
		if (!b)
			return true;
		for (struct spec_rec *r = b->head; r && b->tag == tag &&
		     id == EVID_SPEC_COMMIT; r = r->next)
			handle(t, r->data, r->size);
		spec_free(b);
		b->ended = (uint32_t)tag;
		return true;
	}
	tag = id >> 32;
	if (!tag || id >= EVID_SPEC_DISCARD)
		return false;
	b = spec_of(t, tag & 0xff);
	if (!b || tag == b->ended)
		return true;
	if (tag != b->tag) {	/* the id's next speculation */
		spec_free(b);
		b->tag = (uint32_t)tag;
	}
	keep(t, b, id, rec, size);
	return true;
}

void rt_spec_close(struct tracer *t)
{
	if (t->spec_drops && !t->no_warnings)
		fprintf(stderr, "dtrace: %s%llu speculative drop%s\n",
			t->dt_droptags ? "[DTRACEDROP_SPEC] " : "",
			(unsigned long long)t->spec_drops,
			t->spec_drops == 1 ? "" : "s");
	t->spec_drops = 0;
	for (int i = 0; i < t->nspecs; i++)
		spec_free(&t->specs[i]);
	free(t->specs);
	t->specs = NULL;
	t->nspecs = 0;
}
