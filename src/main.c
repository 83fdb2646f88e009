/* main.c - which command runs: `sonde dtrace` (dcli.c), `sonde serve`
 * (serve.c), `sonde inject` (inject.c), a run through the service for a user who cannot load BPF
 * (client.c), or sonde's own command line (cli.c) compiled and run by
 * session.c.  Only the command-line files turn errors into messages
 * and exit statuses. */
#include <string.h>

#include "dcli.h"
#include "inject.h"
#include "options.h"
#include "serve.h"

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct options o;
	const char *sock;
	int rc;

	/* sonde dtrace ...: dtrace(1)'s command line (dcli.c), also when
	 * sonde is installed (linked) as dtrace; through sonde serve
	 * without privileges */
	if (argc > 1 && !strcmp(argv[1], "dtrace"))
		return client_wanted(&argc, argv, &sock) ?
		       client_run(sock, argc, argv) :
		       dcli_main(argc - 1, argv + 1);
	if (!strcmp(base, "dtrace"))
		return client_wanted(&argc, argv, &sock) ?
		       client_run_dtrace(sock, argc, argv) :
		       dcli_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "serve"))
		return serve_main(argc - 1, argv + 1);
	/* root's alone: never through the service */
	if (argc > 1 && !strcmp(argv[1], "inject"))
		return inject_main(argc - 1, argv + 1);
	if (client_wanted(&argc, argv, &sock))
		return client_run(sock, argc, argv);
	rc = cli_parse(argc, argv, &o);
	if (rc) {
		options_free(&o);
		return rc - 1;
	}
	return session_run(&o);
}
