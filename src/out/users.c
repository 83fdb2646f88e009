/* users.c - user ids as names, for the username builtin.
 *
 * BPF records the uid; the name is looked up when the value prints, in
 * the password database (getpwuid_r: /etc/passwd and whatever NSS adds),
 * once per uid for the whole run: printf streams a million lines a
 * second, and the files backend reads /etc/passwd on every call.  A uid
 * without an entry prints as its number (bpftrace 0.17 prints nothing).
 */
#include "out/printer.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

struct uname {
	uint32_t uid;
	char *name;
};

/* Sorted by uid. */
struct usernames {
	struct uname *v;
	size_t n, cap;
};

/* The name of UID from the database, malloc'd; its number if none. */
static char *lookup(uint32_t uid)
{
	long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t cap = hint > 0 ? (size_t)hint : 1024;
	struct passwd pw, *res = NULL;
	char *buf, *name;
	int rc;

	for (;;) {
		buf = xmalloc(cap);
		rc = getpwuid_r((uid_t)uid, &pw, buf, cap, &res);
		if (rc != ERANGE || cap >= 1 << 20)
			break;
		free(buf);
		cap *= 2;
	}
	if (!rc && res && res->pw_name && *res->pw_name) {
		name = xstrdup(res->pw_name);
	} else {
		name = xmalloc(16);
		snprintf(name, 16, "%u", uid);
	}
	free(buf);
	return name;
}

const char *usr_name(struct printer *pr, uint32_t uid)
{
	struct usernames *u = pr->usernames;
	size_t lo = 0, hi;

	if (!u)
		u = pr->usernames = xcalloc(1, sizeof(*u));
	hi = u->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->v[mid].uid == uid)
			return u->v[mid].name;
		if (u->v[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 8;
		u->v = xrealloc(u->v, u->cap * sizeof(*u->v));
	}
	memmove(u->v + lo + 1, u->v + lo, (u->n - lo) * sizeof(*u->v));
	u->v[lo].uid = uid;
	u->v[lo].name = lookup(uid);
	u->n++;
	return u->v[lo].name;
}

void usr_free(struct printer *pr)
{
	struct usernames *u = pr->usernames;

	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i].name);
	free(u->v);
	free(u);
	pr->usernames = NULL;
}
