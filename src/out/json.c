/* json.c - -f json: newline-delimited JSON messages, one per line.
 *
 * The message types and shapes are bpftrace's, so that tools written
 * for bpftrace's JSON read sonde's:
 *
 *   {"type": "attached_probes", "data": {"probes": 3}}
 *   {"type": "printf", "data": "text\n"}      also "time", "join", "cat"
 *                                             (a file), and "syscall"
 *                                             (system()'s output)
 *   {"type": "value", "data": 42}             print(value)
 *   {"type": "map", "data": {"@m": {"k1,k2": 5}}}    keyless: {"@m": 5}
 *   {"type": "hist", "data": {"@h": [{"min": 2, "max": 3, "count": 1}]}}
 *   {"type": "stats", "data": {"@s": {"count": 2, "average": 3, "total": 6}}}
 *                                             avg maps: {"@a": 3}
 *   {"type": "lost_events", "data": {"events": 12}}
 *   {"type": "helper_error", "helper": "probe_read_str", "retcode": -14,
 *    "line": 2, "col": 9}                    -k, per failed helper call
 *
 * Where sonde differs, it is to stay valid JSON: no blank lines between
 * messages (bpftrace prints its text mode's two at exit), pointers are
 * strings ("0x...", bpftrace writes a bare 0x...), so are the texts of
 * strftime(), strerror() and cgroup_path() values (bpftrace writes them
 * bare), and bytes that are not UTF-8 are escaped as \u00XX.
 * Everything that is not output (compile errors, warnings) stays text
 * on stderr.
 */
#include "out/json.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* S (at most N bytes, up to a NUL) as a JSON string literal. */
void js_str(FILE *f, const char *s, size_t n)
{
	const char *end = s + strnlen(s, n);

	fputc('"', f);
	while (s < end) {
		unsigned char c = (unsigned char)*s;
		int k;

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else if ((k = utf8_len(s, end)) > 0) {
				fwrite(s, 1, (size_t)k, f);
				s += k;
				continue;
			} else {
				fprintf(f, "\\u%04x", c);	/* as Latin-1 */
			}
		}
		s++;
	}
	fputc('"', f);
}

void js_text(FILE *f, const char *type, const char *s, size_t n)
{
	fprintf(f, "{\"type\": \"%s\", \"data\": ", type);
	js_str(f, s, n);
	fputs("}\n", f);
}

void js_count(FILE *f, const char *type, const char *field, uint64_t v,
	      bool with_count)
{
	if (with_count)	/* today's bpftrace says it twice */
		fprintf(f, "{\"type\": \"%s\", \"count\": %llu, \"data\": {\"%s\": %llu}}\n",
			type, (unsigned long long)v, field,
			(unsigned long long)v);
	else
		fprintf(f, "{\"type\": \"%s\", \"data\": {\"%s\": %llu}}\n",
			type, field, (unsigned long long)v);
}

/* Run WRITE(ARG, memstream) and send what it wrote as a TYPE message;
 * the writers of the text mode serve the JSON mode this way. */
void js_capture(FILE *f, const char *type,
		void (*write)(void *arg, FILE *m), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	write(arg, m);
	fclose(m);
	js_text(f, type, buf ? buf : "", len);
	free(buf);
}
