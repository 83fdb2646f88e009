/* serve_metrics.c - sonde serve --metrics ADDR: the machine's metrics
 * from boot (docs/fleet.md, sonde-serve(8)).  Every script of the
 * metrics directory (the .bt files of /etc/sonde/metrics.d) runs as root in a
 * process of its own, as `sonde -q --metrics` would, on a loopback
 * socket the service made for it, its names prefixed sonde_SCRIPT_ so
 * that two scripts never define one family twice.  A thread of the
 * service serves ADDR: a scrape of /metrics asks every script's
 * endpoint (libevent's HTTP client) and answers with their texts in
 * the directory's order.  A script that fails or ends is left out and
 * logged; the others go on. */
#include "serve.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "options.h"
#include "base/util.h"
#include "run/httpd.h"
#include "run/tracer.h"

#define MAX_SCRIPTS 64

struct mscript {
	char *name, *path;
	pid_t pid;		/* 0 once it ended */
	int port;
};

struct serve_metrics {
	struct mscript s[MAX_SCRIPTS];
	int n;
	struct httpd h;
	int audit_fd;
};

/* One scrape: the scripts' answers, joined when the last comes. */
struct gather {
	struct evhttp_request *req;
	struct evbuffer *part[MAX_SCRIPTS];
	int pending, n;
};

static void finish(struct gather *g)
{
	struct evbuffer *out = evbuffer_new();

	for (int i = 0; i < g->n; i++)
		if (g->part[i]) {
			if (out)
				evbuffer_add_buffer(out, g->part[i]);
			evbuffer_free(g->part[i]);
		}
	evhttp_add_header(evhttp_request_get_output_headers(g->req),
			  "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	evhttp_send_reply(g->req, HTTP_OK, "OK", out);
	if (out)
		evbuffer_free(out);
	free(g);
}

struct part_ctx {
	struct gather *g;
	int i;
};

static void got_part(struct evhttp_request *r, void *arg)
{
	struct part_ctx *pc = arg;
	struct gather *g = pc->g;

	if (r && evhttp_request_get_response_code(r) == HTTP_OK &&
	    (g->part[pc->i] = evbuffer_new()))
		evbuffer_add_buffer(g->part[pc->i], evhttp_request_get_input_buffer(r));
	free(pc);
	if (--g->pending == 0)
		finish(g);
}

static void scrape(struct evhttp_request *req, void *arg)
{
	struct serve_metrics *m = arg;
	struct gather *g = calloc(1, sizeof(*g));

	if (!g) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	g->req = req;
	g->n = m->n;
	g->pending = 1;		/* until every request is out */
	for (int i = 0; i < m->n; i++) {
		struct evhttp_connection *c;
		struct evhttp_request *r;
		struct part_ctx *pc;

		if (!m->s[i].pid || !(pc = calloc(1, sizeof(*pc))))
			continue;
		pc->g = g;
		pc->i = i;
		c = evhttp_connection_base_new(m->h.base, NULL, "127.0.0.1",
					       (uint16_t)m->s[i].port);
		r = c ? evhttp_request_new(got_part, pc) : NULL;
		if (!r) {
			if (c)
				evhttp_connection_free(c);
			free(pc);
			continue;
		}
		evhttp_connection_set_timeout(c, 5);
		evhttp_connection_free_on_completion(c);
		g->pending++;
		if (evhttp_make_request(c, r, EVHTTP_REQ_GET, "/metrics")) {
			g->pending--;	/* libevent freed r, calls no one */
			free(pc);
		}
	}
	if (--g->pending == 0)
		finish(g);
}

/* A loopback listening socket for a script; its fd, the port in *PORT. */
static int loopback(int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 16) || getsockname(fd, (struct sockaddr *)&a, &len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

/* Start script S in a process of its own; CLOSE_FDS: the service's. */
static void start_script(struct serve_metrics *m, struct mscript *s,
			 const sigset_t *old)
{
	char arg[32], prefix[128];
	int fd = loopback(&s->port);
	pid_t pid;

	if (fd < 0) {
		serve_audit(m->audit_fd, "metrics script %s: no loopback socket: %s",
			    s->path, strerror(errno));
		return;
	}
	snprintf(arg, sizeof(arg), "fd:%d", fd);
	snprintf(prefix, sizeof(prefix), "sonde_%s", s->name);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "sonde", "-q", "--metrics", arg, s->path, NULL };
		struct options o;
		int rc;

		serve_close_fds(&fd, 1);	/* the service's, all */
		closelog();
		signal(SIGCHLD, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		sigprocmask(SIG_SETMASK, old, NULL);
		optind = 1;
		rc = cli_parse(5, argv, &o);
		if (rc)
			_exit(rc - 1);
		o.metrics_prefix = prefix;
		o.buffering = _IOLBF;
		_exit(session_run(&o));
	}
	close(fd);
	if (pid < 0) {
		serve_audit(m->audit_fd, "metrics script %s: cannot fork: %s",
			    s->path, strerror(errno));
		return;
	}
	s->pid = pid;
	serve_audit(m->audit_fd, "metrics script %s pid=%d port=%d names=%s_*",
		    s->path, (int)pid, s->port, prefix);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct mscript *)a)->name,
		      ((const struct mscript *)b)->name);
}

/* The *.bt files of DIR into M, sorted, named for metrics. */
static void find_scripts(struct serve_metrics *m, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) && m->n < MAX_SCRIPTS) {
		size_t len = strlen(e->d_name);
		struct mscript *s;

		if (len < 4 || strcmp(e->d_name + len - 3, ".bt") ||
		    e->d_name[0] == '.')
			continue;
		s = &m->s[m->n++];
		s->name = xstrdup(e->d_name);
		s->name[len - 3] = 0;
		for (char *p = s->name; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9')))
				*p = '_';
		s->path = xmalloc(strlen(dir) + len + 2);
		sprintf(s->path, "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	qsort(m->s, (size_t)m->n, sizeof(m->s[0]), by_name);
}

int serve_metrics_start(struct serve_metrics **out, const char *addr,
			const char *dir, int audit_fd, const sigset_t *old)
{
	struct serve_metrics *m = calloc(1, sizeof(*m));
	char host[64];
	const char *colon = strrchr(addr, ':');
	char *end;
	long port = strtol(colon ? colon + 1 : addr, &end, 10);
	size_t hl = colon ? (size_t)(colon - addr) : 0;
	struct evhttp_bound_socket *sock;

	if (!m)
		return -1;
	m->audit_fd = audit_fd;
	m->h.stop[0] = m->h.stop[1] = -1;	/* httpd_free() closes none */
	if (hl >= sizeof(host) || *end || end == (colon ? colon + 1 : addr) ||
	    port < 0 || port > 65535) {
		fprintf(stderr, "sonde serve: --metrics takes PORT or HOST:PORT, not '%s'\n", addr);
		free(m);
		return -1;
	}
	snprintf(host, sizeof(host), "%.*s", (int)hl, addr);
	if (!hl)
		strcpy(host, "127.0.0.1");
	if (httpd_init(&m->h) ||
	    !(sock = evhttp_bind_socket_with_handle(m->h.http, host, (uint16_t)port))) {
		fprintf(stderr, "sonde serve: --metrics: cannot listen on %s port %ld: %s\n",
			host, port, strerror(errno ? errno : EADDRNOTAVAIL));
		serve_metrics_free(m);
		*out = NULL;
		return -1;
	}
	{	/* port 0: the one the kernel chose, for the log */
		struct sockaddr_in a;
		socklen_t len = sizeof(a);

		if (!getsockname(evhttp_bound_socket_get_fd(sock),
				 (struct sockaddr *)&a, &len))
			port = ntohs(a.sin_port);
	}
	evhttp_set_cb(m->h.http, "/metrics", scrape, m);
	evhttp_set_gencb(m->h.http, rt_http_not_found, m);
	find_scripts(m, dir);
	for (int i = 0; i < m->n; i++)
		start_script(m, &m->s[i], old);
	*out = m;	/* the scripts started: the caller reaps them */
	if (httpd_start(&m->h)) {
		serve_metrics_stop(m);
		return -1;
	}
	serve_audit(audit_fd, "metrics at http://%s:%ld/metrics from %d scripts of %s",
		    host, port, m->n, dir);
	return 0;
}

bool serve_metrics_reaped(struct serve_metrics *m, pid_t pid, int status)
{
	for (int i = 0; m && i < m->n; i++) {
		if (m->s[i].pid != pid)
			continue;
		/* the thread reads pid: a word, and a missed scrape at worst */
		m->s[i].pid = 0;
		serve_audit(m->audit_fd, "metrics script %s ended: %s %d", m->s[i].path,
			    WIFEXITED(status) ? "exit" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return true;
	}
	return false;
}

void serve_metrics_stop(struct serve_metrics *m)
{
	if (!m)
		return;
	httpd_stop(&m->h);
	for (int i = 0; i < m->n; i++)
		if (m->s[i].pid > 0)
			kill(m->s[i].pid, SIGTERM);
}

void serve_metrics_free(struct serve_metrics *m)
{
	if (!m)
		return;
	serve_metrics_stop(m);
	for (int i = 0; i < m->n; i++) {
		free(m->s[i].name);
		free(m->s[i].path);
	}
	httpd_free(&m->h);
	free(m);
}
