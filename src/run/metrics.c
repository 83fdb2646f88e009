/* metrics.c - --metrics ADDR: the maps over HTTP for Prometheus, while
 * the script runs (docs/internals.md, "Live metrics").  One thread owns
 * a libevent base and its evhttp server; GET /metrics formats the maps
 * (out/prom.c) under the tracer's print lock, which the main thread
 * holds while it prints.  The main thread touches the server only
 * before the thread starts and through a pipe that stops it. */
#include "run/tracer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/httpd.h"

struct metrics {
	struct tracer *t;
	struct httpd h;
	char url[128];		/* http://HOST:PORT/metrics */
};

static void reply_metrics(struct evhttp_request *req, void *arg)
{
	struct metrics *m = arg;
	struct evbuffer *buf;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	pthread_mutex_lock(&m->t->print_lock);
	pr_prometheus(&m->t->pr, f);
	pthread_mutex_unlock(&m->t->print_lock);
	if (fclose(f) || !(buf = evbuffer_new())) {
		free(text);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add(buf, text, len);
	free(text);
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	evhttp_send_reply(req, HTTP_OK, "OK", buf);
	evbuffer_free(buf);
}

void rt_http_not_found(struct evhttp_request *req, void *arg)
{
	struct evbuffer *buf = evbuffer_new();

	(void)arg;
	if (buf)
		evbuffer_add_printf(buf, "sonde serves its maps at /metrics\n");
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Content-Type", "text/plain; charset=utf-8");
	evhttp_send_reply(req, HTTP_NOTFOUND, "Not Found", buf);
	if (buf)
		evbuffer_free(buf);
}

/* ADDR: PORT, :PORT, HOST:PORT or [IPV6]:PORT into HOST (127.0.0.1
 * when not given) and *PORT; false if it is none of those. */
static bool parse_addr(const char *addr, char *host, size_t cap, int *port)
{
	const char *colon = strrchr(addr, ':'), *p;
	char *end;
	long n;
	size_t hl;

	p = colon ? colon + 1 : addr;
	n = strtol(p, &end, 10);
	if (!*p || *end || n < 0 || n > 65535)
		return false;
	*port = (int)n;
	hl = colon ? (size_t)(colon - addr) : 0;
	if (hl >= 2 && addr[0] == '[' && addr[hl - 1] == ']') {
		addr++;
		hl -= 2;
	}
	if (!hl) {
		snprintf(host, cap, "127.0.0.1");
		return true;
	}
	if (hl >= cap)
		return false;
	memcpy(host, addr, hl);
	host[hl] = 0;
	return true;
}

/* The port the socket FD was given (for port 0). */
static int bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void metrics_free(struct metrics *m)
{
	httpd_free(&m->h);
	free(m);
}

int rt_metrics_start(struct tracer *t, const char *addr)
{
	struct metrics *m = calloc(1, sizeof(*m));
	struct evhttp_bound_socket *sock;
	char host[64];
	int port, rc;

	if (!m)
		return rt_fail(t, -ENOMEM, "--metrics: out of memory");
	m->t = t;
	m->h.stop[0] = m->h.stop[1] = -1;	/* httpd_free() closes none */
	if (!strncmp(addr, "fd:", 3) && atoi(addr + 3) > 2) {
		struct sockaddr_in sin;
		socklen_t sl = sizeof(sin);

		if (getsockname(atoi(addr + 3), (struct sockaddr *)&sin, &sl) ||
		    sin.sin_family != AF_INET ||
		    !inet_ntop(AF_INET, &sin.sin_addr, host, sizeof(host)))
			snprintf(host, sizeof(host), "127.0.0.1");
		port = 0;
	} else if (!parse_addr(addr, host, sizeof(host), &port)) {
		metrics_free(m);
		return rt_fail(t, -EINVAL,
			       "--metrics takes PORT, HOST:PORT, [IPV6]:PORT or fd:N, not '%s'",
			       addr);
	}
	if (httpd_init(&m->h)) {
		metrics_free(m);
		return rt_fail(t, -ENOMEM, "--metrics: cannot set up the HTTP server");
	}
	evhttp_set_cb(m->h.http, "/metrics", reply_metrics, m);
	evhttp_set_gencb(m->h.http, rt_http_not_found, m);
	errno = 0;
	if (!strncmp(addr, "fd:", 3)) {	/* a socket a service manager made */
		evutil_make_socket_nonblocking(atoi(addr + 3));
		sock = evhttp_accept_socket_with_handle(m->h.http, atoi(addr + 3));
	}
	else {
		sock = evhttp_bind_socket_with_handle(m->h.http, host, (uint16_t)port);
	}
	if (!sock) {
		int err = errno ? errno : EADDRNOTAVAIL;

		metrics_free(m);
		return rt_fail(t, -err, "--metrics: cannot listen on %s port %d: %s",
			       host, port, strerror(err));
	}
	port = bound_port(evhttp_bound_socket_get_fd(sock));
	snprintf(m->url, sizeof(m->url), strchr(host, ':') ?
		 "http://[%s]:%d/metrics" : "http://%s:%d/metrics", host, port);
	rc = httpd_start(&m->h);
	if (rc) {
		metrics_free(m);
		return rt_fail(t, -rc, "--metrics: cannot start its thread: %s",
			       strerror(rc));
	}
	t->metrics = m;
	if (!t->quiet)
		fprintf(stderr, "Serving metrics at %s\n", m->url);
	return 0;
}

void rt_metrics_stop(struct tracer *t)
{
	struct metrics *m = t->metrics;

	if (!m)
		return;
	metrics_free(m);	/* the thread first */
	t->metrics = NULL;
}
