/* httpd.c - an evhttp server on its own thread (httpd.h). */
#include "run/httpd.h"

#include <errno.h>
#include <event2/event.h>
#include <event2/http.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void on_stop(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	event_base_loopbreak(((struct httpd *)arg)->base);
}

static void *serve(void *arg)
{
	event_base_dispatch(((struct httpd *)arg)->base);
	return NULL;
}

int httpd_init(struct httpd *h)
{
	memset(h, 0, sizeof(*h));
	h->stop[0] = h->stop[1] = -1;
	if (pipe2(h->stop, O_CLOEXEC) || !(h->base = event_base_new()) ||
	    !(h->http = evhttp_new(h->base)) ||
	    !(h->stop_ev = event_new(h->base, h->stop[0], EV_READ, on_stop, h)) ||
	    event_add(h->stop_ev, NULL))
		return -1;
	evhttp_set_allowed_methods(h->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
	/* a scraper that stops reading does not hold the thread forever */
	evhttp_set_timeout(h->http, 10);
	return 0;
}

int httpd_start(struct httpd *h)
{
	int rc = pthread_create(&h->thread, NULL, serve, h);

	h->running = !rc;
	return rc;
}

void httpd_stop(struct httpd *h)
{
	ssize_t n;

	if (!h->running)
		return;
	do
		n = write(h->stop[1], "", 1);
	while (n < 0 && errno == EINTR);
	pthread_join(h->thread, NULL);
	h->running = false;
}

void httpd_free(struct httpd *h)
{
	httpd_stop(h);
	if (h->stop_ev)
		event_free(h->stop_ev);
	if (h->http)
		evhttp_free(h->http);
	if (h->base)
		event_base_free(h->base);
	if (h->stop[0] >= 0)
		close(h->stop[0]);
	if (h->stop[1] >= 0)
		close(h->stop[1]);
	memset(h, 0, sizeof(*h));
	h->stop[0] = h->stop[1] = -1;
}
