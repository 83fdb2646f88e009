/* httpd.h - an evhttp server on a thread of its own, stopped through a
 * pipe, so that no other thread ever calls into its libevent base
 * (libevent then needs no locking): --metrics' (run/metrics.c) and
 * sonde serve --metrics' (serve_metrics.c). */
#ifndef SONDE_HTTPD_H
#define SONDE_HTTPD_H

#include <pthread.h>
#include <stdbool.h>

struct event_base;
struct evhttp;
struct event;

struct httpd {
	struct event_base *base;
	struct evhttp *http;
	struct event *stop_ev;
	int stop[2];		/* a byte on stop[1] ends the thread */
	pthread_t thread;
	bool running;
};

/* The base, the server (GET and HEAD only, 10 s timeouts) and the stop
 * pipe; 0, or -1 (httpd_free() then frees what was made). */
int httpd_init(struct httpd *h);
/* Run the base on a thread; 0 or an errno. */
int httpd_start(struct httpd *h);
/* Stop the thread and wait for it (nothing if it is not running). */
void httpd_stop(struct httpd *h);
void httpd_free(struct httpd *h);

#endif
