/* kconst.c - the kernel's integer constants, compiled in.
 *
 * Scripts written for bpftrace #include kernel headers for their
 * constants (AF_INET, TASK_RUNNING, EPERM), which bpftrace gets by
 * running clang over the headers.  sonde reads no system header:
 * constants the kernel declares as enums come from BTF (catalog/btf.c),
 * and the #defines from two tables here.  The first, written by hand,
 * holds what only the kernel's internal headers define (so no UAPI
 * header has it); its values are those of Linux 6.x on x86_64 and
 * arm64.  The second, build/kconst.inc, is made when sonde is
 * built by tools/gen-kconst from the UAPI headers of linux-libc-dev
 * (empty without them).  A script's own #define always wins: macros are
 * expanded before sema asks here.
 */
#include "catalog/kconst.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "kconst.inc"

/* What only the kernel's internal headers define, sorted by name
 * (strcmp: a unit test checks it) for a binary search:
 *   include/linux/socket.h: the address families AF_* and their PF_*
 *     twins, send and receive flags MSG_*, socket option levels SOL_*;
 *   include/linux/net.h: SOCK_NONBLOCK, SOCK_CLOEXEC;
 *   include/linux/sched.h: the task states (task_struct.__state, the
 *     prev_state of sched_switch) as Linux 5.14 and later number them
 *     (TASK_TRACED alone since 5.19), EXIT_*, and the task flags PF_*
 *     (task_struct.flags) that have kept their value since Linux 4.x;
 *   include/linux/errno.h: errors the kernel never returns to a process
 *     but a probe sees (ERESTARTSYS, ENOTSUPP, ...). */
static const struct {
	const char *name;
	int64_t value;
} kernel_only[] = {
	{ "AF_ALG", 38 }, { "AF_APPLETALK", 5 }, { "AF_ASH", 18 },
	{ "AF_ATMPVC", 8 }, { "AF_ATMSVC", 20 }, { "AF_AX25", 3 },
	{ "AF_BLUETOOTH", 31 }, { "AF_BRIDGE", 7 }, { "AF_CAIF", 37 },
	{ "AF_CAN", 29 }, { "AF_DECnet", 12 }, { "AF_ECONET", 19 },
	{ "AF_IB", 27 }, { "AF_IEEE802154", 36 }, { "AF_INET", 2 },
	{ "AF_INET6", 10 }, { "AF_IPX", 4 }, { "AF_IRDA", 23 },
	{ "AF_ISDN", 34 }, { "AF_IUCV", 32 }, { "AF_KCM", 41 },
	{ "AF_KEY", 15 }, { "AF_LLC", 26 }, { "AF_LOCAL", 1 },
	{ "AF_MAX", 46 }, { "AF_MCTP", 45 }, { "AF_MPLS", 28 },
	{ "AF_NETBEUI", 13 }, { "AF_NETLINK", 16 }, { "AF_NETROM", 6 },
	{ "AF_NFC", 39 }, { "AF_PACKET", 17 }, { "AF_PHONET", 35 },
	{ "AF_PPPOX", 24 }, { "AF_QIPCRTR", 42 }, { "AF_RDS", 21 },
	{ "AF_ROSE", 11 }, { "AF_ROUTE", 16 }, { "AF_RXRPC", 33 },
	{ "AF_SECURITY", 14 }, { "AF_SMC", 43 }, { "AF_SNA", 22 },
	{ "AF_TIPC", 30 }, { "AF_UNIX", 1 }, { "AF_UNSPEC", 0 },
	{ "AF_VSOCK", 40 }, { "AF_WANPIPE", 25 }, { "AF_X25", 9 },
	{ "AF_XDP", 44 }, { "EBADCOOKIE", 523 }, { "EBADHANDLE", 521 },
	{ "EBADTYPE", 527 }, { "EIOCBQUEUED", 529 }, { "EJUKEBOX", 528 },
	{ "ENOIOCTLCMD", 515 }, { "ENOPARAM", 519 }, { "ENOTSUPP", 524 },
	{ "ENOTSYNC", 522 }, { "EOPENSTALE", 518 }, { "EPROBE_DEFER", 517 },
	{ "ERECALLCONFLICT", 530 }, { "ERESTARTNOHAND", 514 },
	{ "ERESTARTNOINTR", 513 }, { "ERESTARTSYS", 512 },
	{ "ERESTART_RESTARTBLOCK", 516 }, { "ESERVERFAULT", 526 },
	{ "ETOOSMALL", 525 }, { "EXIT_DEAD", 0x10 }, { "EXIT_TRACE", 0x30 },
	{ "EXIT_ZOMBIE", 0x20 }, { "MSG_BATCH", 0x40000 },
	{ "MSG_CMSG_CLOEXEC", 0x40000000 }, { "MSG_CONFIRM", 0x800 },
	{ "MSG_CTRUNC", 8 }, { "MSG_DONTROUTE", 4 }, { "MSG_DONTWAIT", 0x40 },
	{ "MSG_EOF", 0x200 }, { "MSG_EOR", 0x80 }, { "MSG_ERRQUEUE", 0x2000 },
	{ "MSG_FASTOPEN", 0x20000000 }, { "MSG_FIN", 0x200 },
	{ "MSG_MORE", 0x8000 }, { "MSG_NOSIGNAL", 0x4000 }, { "MSG_OOB", 1 },
	{ "MSG_PEEK", 2 }, { "MSG_PROBE", 0x10 }, { "MSG_RST", 0x1000 },
	{ "MSG_SYN", 0x400 }, { "MSG_TRUNC", 0x20 }, { "MSG_TRYHARD", 4 },
	{ "MSG_WAITALL", 0x100 }, { "MSG_WAITFORONE", 0x10000 },
	{ "MSG_ZEROCOPY", 0x4000000 }, { "PF_ALG", 38 },
	{ "PF_APPLETALK", 5 }, { "PF_ASH", 18 }, { "PF_ATMPVC", 8 },
	{ "PF_ATMSVC", 20 }, { "PF_AX25", 3 }, { "PF_BLUETOOTH", 31 },
	{ "PF_BRIDGE", 7 }, { "PF_CAIF", 37 }, { "PF_CAN", 29 },
	{ "PF_DECnet", 12 }, { "PF_DUMPCORE", 0x200 }, { "PF_ECONET", 19 },
	{ "PF_EXITING", 0x4 }, { "PF_FORKNOEXEC", 0x40 }, { "PF_IB", 27 },
	{ "PF_IDLE", 0x2 }, { "PF_IEEE802154", 36 }, { "PF_INET", 2 },
	{ "PF_INET6", 10 }, { "PF_IPX", 4 }, { "PF_IRDA", 23 },
	{ "PF_ISDN", 34 }, { "PF_IUCV", 32 }, { "PF_KCM", 41 },
	{ "PF_KEY", 15 }, { "PF_KTHREAD", 0x200000 }, { "PF_LLC", 26 },
	{ "PF_LOCAL", 1 }, { "PF_MAX", 46 }, { "PF_MCTP", 45 },
	{ "PF_MEMALLOC", 0x800 }, { "PF_MPLS", 28 }, { "PF_NETBEUI", 13 },
	{ "PF_NETLINK", 16 }, { "PF_NETROM", 6 }, { "PF_NFC", 39 },
	{ "PF_PACKET", 17 }, { "PF_PHONET", 35 }, { "PF_PPPOX", 24 },
	{ "PF_QIPCRTR", 42 }, { "PF_RDS", 21 }, { "PF_ROSE", 11 },
	{ "PF_ROUTE", 16 }, { "PF_RXRPC", 33 }, { "PF_SECURITY", 14 },
	{ "PF_SIGNALED", 0x400 }, { "PF_SMC", 43 }, { "PF_SNA", 22 },
	{ "PF_SUPERPRIV", 0x100 }, { "PF_TIPC", 30 }, { "PF_UNIX", 1 },
	{ "PF_UNSPEC", 0 }, { "PF_VSOCK", 40 }, { "PF_WANPIPE", 25 },
	{ "PF_WQ_WORKER", 0x20 }, { "PF_X25", 9 }, { "PF_XDP", 44 },
	{ "SOCK_CLOEXEC", 02000000 }, { "SOCK_NONBLOCK", 04000 },
	{ "SOL_ALG", 279 }, { "SOL_ATM", 264 }, { "SOL_BLUETOOTH", 274 },
	{ "SOL_CAIF", 278 }, { "SOL_DCCP", 269 }, { "SOL_DECNET", 261 },
	{ "SOL_ICMPV6", 58 }, { "SOL_IP", 0 }, { "SOL_IPV6", 41 },
	{ "SOL_IRDA", 266 }, { "SOL_IUCV", 277 }, { "SOL_KCM", 281 },
	{ "SOL_LLC", 268 }, { "SOL_MCTP", 285 }, { "SOL_MPTCP", 284 },
	{ "SOL_NETBEUI", 267 }, { "SOL_NETLINK", 270 }, { "SOL_NFC", 280 },
	{ "SOL_PACKET", 263 }, { "SOL_PNPIPE", 275 }, { "SOL_PPPOL2TP", 273 },
	{ "SOL_RAW", 255 }, { "SOL_RDS", 276 }, { "SOL_RXRPC", 272 },
	{ "SOL_SCTP", 132 }, { "SOL_SMC", 286 }, { "SOL_TCP", 6 },
	{ "SOL_TIPC", 271 }, { "SOL_TLS", 282 }, { "SOL_UDP", 17 },
	{ "SOL_UDPLITE", 136 }, { "SOL_X25", 262 }, { "SOL_XDP", 283 },
	{ "TASK_ANY", 0xffff }, { "TASK_DEAD", 0x80 },
	{ "TASK_FREEZABLE", 0x2000 }, { "TASK_FROZEN", 0x8000 },
	{ "TASK_IDLE", 0x402 }, { "TASK_INTERRUPTIBLE", 0x1 },
	{ "TASK_KILLABLE", 0x102 }, { "TASK_NEW", 0x800 },
	{ "TASK_NOLOAD", 0x400 }, { "TASK_NORMAL", 0x3 },
	{ "TASK_PARKED", 0x40 }, { "TASK_REPORT", 0x7f },
	{ "TASK_REPORT_IDLE", 0x80 }, { "TASK_REPORT_MAX", 0x100 },
	{ "TASK_RTLOCK_WAIT", 0x1000 }, { "TASK_RUNNING", 0x0 },
	{ "TASK_STATE_MAX", 0x10000 }, { "TASK_STOPPED", 0x104 },
	{ "TASK_TRACED", 0x8 }, { "TASK_UNINTERRUPTIBLE", 0x2 },
	{ "TASK_WAKEKILL", 0x100 }, { "TASK_WAKING", 0x200 },
	{ "__TASK_STOPPED", 0x4 }, { "__TASK_TRACED", 0x8 },
};

static bool find_kernel_only(const char *name, int64_t *value)
{
	size_t lo = 0, hi = ARRAY_SIZE(kernel_only);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, kernel_only[mid].name);

		if (!c) {
			*value = kernel_only[mid].value;
			return true;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

bool kconst_sorted(void)
{
	for (size_t i = 1; i < ARRAY_SIZE(kernel_only); i++)
		if (strcmp(kernel_only[i - 1].name, kernel_only[i].name) >= 0)
			return false;
	return true;
}

/* One entry of the generated table at P: its name into BUF (which
 * holds the previous name, whose first bytes it shares), its value;
 * returns the next entry. */
static const unsigned char *entry(const unsigned char *p, char *buf,
				  int64_t *value)
{
	size_t k = *p++, n = strlen((const char *)p);
	uint64_t v = 0;
	int shift = 0;

	memcpy(buf + k, p, n + 1);
	p += n + 1;
	do {
		v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80 && shift < 64);
	*value = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
	return p;
}

static bool find_uapi(const char *name, int64_t *value)
{
	size_t nblocks = (KC_COUNT + KC_BLOCK - 1) / KC_BLOCK, lo = 0, hi;
	char buf[256 + 1];

	if (!KC_COUNT || strlen(name) > 255)
		return false;
	/* the last block whose first name is not after NAME */
	hi = nblocks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp((const char *)kc_names + kc_blocks[mid] + 1, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	{
		const unsigned char *p = kc_names + kc_blocks[lo - 1];
		size_t left = KC_COUNT - (lo - 1) * KC_BLOCK;

		for (size_t i = 0; i < KC_BLOCK && i < left; i++) {
			int c;

			p = entry(p, buf, value);
			c = strcmp(buf, name);
			if (!c)
				return true;
			if (c > 0)
				return false;
		}
	}
	return false;
}

bool kconst_lookup(const char *name, int64_t *value)
{
	return find_kernel_only(name, value) || find_uapi(name, value);
}

static void add_dir(struct compiler *c, const char ***dirs, int *n,
		    const char *root, const char *sub)
{
	const char *path = arena_printf(&c->arena, "%s/%s", root, sub);
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode) || *n >= 64)
		return;
	(*dirs)[(*n)++] = path;
}

#if defined(__aarch64__)
#define KARCH "arm64"
#else
#define KARCH "x86"
#endif

int kconst_kernel_dirs(struct compiler *c, const char *src, const char ***dirs)
{
	/* the kernel's own include order (LINUXINCLUDE in its Makefile) */
	static const char *const subs[] = {
		"arch/" KARCH "/include", "arch/" KARCH "/include/generated",
		"include", "arch/" KARCH "/include/uapi",
		"arch/" KARCH "/include/generated/uapi", "include/uapi",
		"include/generated/uapi",
	};
	const char *roots[4];
	struct utsname u;
	int nroots = 0, n = 0;

	*dirs = arena_alloc(&c->arena, sizeof(char *) * 64);
	if (src && *src) {
		roots[nroots++] = src;
	} else if (!uname(&u)) {
		char *dash;

		roots[nroots++] = arena_printf(&c->arena, "/lib/modules/%s/source",
					       u.release);
		roots[nroots++] = arena_printf(&c->arena, "/lib/modules/%s/build",
					       u.release);
		roots[nroots++] = arena_printf(&c->arena, "/usr/src/linux-headers-%s",
					       u.release);
		/* Debian: 6.1.0-18-amd64's headers are split into the
		 * -amd64 package (build) and -common (source) */
		dash = strrchr(u.release, '-');
		if (dash)
			roots[nroots++] = arena_printf(&c->arena,
						       "/usr/src/linux-headers-%.*s-common",
						       (int)(dash - u.release),
						       u.release);
	}
	for (int i = 0; i < nroots; i++)
		for (size_t k = 0; k < ARRAY_SIZE(subs); k++)
			add_dir(c, dirs, &n, roots[i], subs[k]);
	return n;
}

bool kconst_name(const char *prefix, int64_t value, char *buf, size_t cap)
{
	const unsigned char *p = kc_names;
	size_t k = strlen(prefix);
	char name[256 + 1];
	int64_t v;

	for (size_t i = 0; i < KC_COUNT; i++) {
		if (!(i % KC_BLOCK))
			p = kc_names + kc_blocks[i / KC_BLOCK];
		p = entry(p, name, &v);
		if (v == value && !strncmp(name, prefix, k)) {
			snprintf(buf, cap, "%s", name + k);
			return true;
		}
	}
	return false;
}
