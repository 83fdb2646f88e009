/* proto.c - the checks of sonde serve's requests (proto.h): every
 * frame a client sends passes proto_feed() before the service uses it;
 * tests/fuzz/fuzz_proto.c feeds it arbitrary bytes. */
#include "proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void proto_req_init(struct proto_req *r)
{
	memset(r, 0, sizeof(*r));
}

void proto_req_free(struct proto_req *r)
{
	for (int i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	for (int i = 0; i < r->nenv; i++)
		free(r->env[i]);
	free(r->env);
	free(r->cwd);
	memset(r, 0, sizeof(*r));
}

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The payload as a string: no NUL inside. */
static char *text(const uint8_t *p, size_t len)
{
	char *s;

	if (memchr(p, 0, len))
		return NULL;
	s = xmalloc(len + 1);
	memcpy(s, p, len);
	s[len] = 0;
	return s;
}

bool proto_env_allowed(const char *kv)
{
	static const char *const exact[] = {
		"TZ", "LANG", "NO_COLOR", "TERM", "PATH", "HOME",
	};
	static const char *const prefix[] = { "BPFTRACE_", "SONDE_", "LC_" };
	const char *eq = strchr(kv, '=');
	size_t n;

	if (!eq || eq == kv)
		return false;
	n = (size_t)(eq - kv);
	for (size_t i = 0; i < n; i++)
		if (!((kv[i] >= 'A' && kv[i] <= 'Z') ||
		      (kv[i] >= '0' && kv[i] <= '9') || kv[i] == '_'))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (strlen(exact[i]) == n && !strncmp(kv, exact[i], n))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(kv, prefix[i], strlen(prefix[i])) &&
		    n > strlen(prefix[i]))
			return true;
	return false;
}

int proto_feed(struct proto_req *r, int type, const uint8_t *p, size_t len,
	       char *err, size_t errlen)
{
	char *s;

	if (len > PROTO_MAX_FRAME)
		return bad(err, errlen, "a frame of %zu bytes (at most %u)",
			   len, PROTO_MAX_FRAME);
	r->total += len;
	if (r->total > PROTO_MAX_TOTAL)
		return bad(err, errlen, "a request of more than %u bytes",
			   PROTO_MAX_TOTAL);
	if (r->go)
		return bad(err, errlen, "a frame '%c' after the request",
			   type > 32 && type < 127 ? type : '?');
	if (!r->versioned && type != PROTO_T_VERSION)
		return bad(err, errlen, "the first frame is not the version");
	switch (type) {
	case PROTO_T_VERSION:
		if (r->versioned || len != 4)
			return bad(err, errlen, "a bad version frame");
		r->version = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
			     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		if (r->version != PROTO_VERSION)
			return bad(err, errlen,
				   "protocol version %u (this service speaks %d)",
				   r->version, PROTO_VERSION);
		r->versioned = true;
		r->argv = xcalloc(2, sizeof(char *));
		r->argv[r->argc++] = xstrdup("sonde");
		return 0;
	case PROTO_T_ARG:
		if (r->cwd)
			return bad(err, errlen, "an argument after the directory");
		if (r->argc >= PROTO_MAX_ARGS)
			return bad(err, errlen, "more than %d arguments",
				   PROTO_MAX_ARGS);
		if (!(s = text(p, len)))
			return bad(err, errlen, "an argument with a NUL byte");
		r->argv = xrealloc(r->argv, sizeof(char *) * (size_t)(r->argc + 2));
		r->argv[r->argc++] = s;
		r->argv[r->argc] = NULL;
		return 0;
	case PROTO_T_CWD:
		if (r->cwd)
			return bad(err, errlen, "a second directory");
		if (!(s = text(p, len)) || s[0] != '/') {
			free(s);
			return bad(err, errlen, "a directory that is not an absolute path");
		}
		r->cwd = s;
		return 0;
	case PROTO_T_ENV:
		if (r->nenv >= PROTO_MAX_ENV)
			return bad(err, errlen, "more than %d environment variables",
				   PROTO_MAX_ENV);
		if (!(s = text(p, len)) || !proto_env_allowed(s)) {
			free(s);
			return bad(err, errlen, "an environment variable sonde does not read");
		}
		r->env = xrealloc(r->env, sizeof(char *) * (size_t)(r->nenv + 1));
		r->env[r->nenv++] = s;
		return 0;
	case PROTO_T_GO:
		if (len)
			return bad(err, errlen, "a go frame with a payload");
		if (!r->cwd)
			return bad(err, errlen, "no working directory");
		r->go = true;
		return 0;
	default:
		return bad(err, errlen, "an unknown frame type %d", type);
	}
}

int proto_header(const uint8_t *h, uint32_t *len, int *type)
{
	*len = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
	       (uint32_t)h[3] << 24;
	*type = h[4];
	return *len > PROTO_MAX_FRAME ? -1 : 0;
}

void proto_put_header(uint8_t *h, int type, uint32_t len)
{
	h[0] = (uint8_t)len;
	h[1] = (uint8_t)(len >> 8);
	h[2] = (uint8_t)(len >> 16);
	h[3] = (uint8_t)(len >> 24);
	h[4] = (uint8_t)type;
}

int proto_parse(const uint8_t *data, size_t len, struct proto_req *r,
		char *err, size_t errlen)
{
	size_t off = 0;

	while (off < len && !r->go) {
		uint32_t n;
		int type;

		if (len - off < PROTO_HEADER)
			return bad(err, errlen, "a cut header");
		if (proto_header(data + off, &n, &type))
			return bad(err, errlen, "a frame of %u bytes (at most %u)",
				   n, PROTO_MAX_FRAME);
		off += PROTO_HEADER;
		if (len - off < n)
			return bad(err, errlen, "a cut frame");
		if (proto_feed(r, type, data + off, n, err, errlen))
			return -1;
		off += n;
	}
	if (!r->go)
		return bad(err, errlen, "the request ends before 'G'");
	return off == len ? 0 : bad(err, errlen, "bytes after the request");
}
