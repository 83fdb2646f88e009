/* json.h - -f json: the pieces of newline-delimited JSON messages. */
#ifndef SONDE_JSON_H
#define SONDE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

/* S, at most N bytes and up to a NUL, as a quoted JSON string. */
void js_str(FILE *f, const char *s, size_t n);
/* {"type": TYPE, "data": "S"} and a newline. */
void js_text(FILE *f, const char *type, const char *s, size_t n);
/* {"type": TYPE, "data": {FIELD: V}}, with "count": V too as today's
 * bpftrace writes it (WITH_COUNT). */
void js_count(FILE *f, const char *type, const char *field, uint64_t v,
	      bool with_count);
/* What WRITE(ARG, stream) writes, as a TYPE text message. */
void js_capture(FILE *f, const char *type,
		void (*write)(void *arg, FILE *m), void *arg);

#endif
