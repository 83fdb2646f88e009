/* dcli.h - dtrace(1)'s command line (dcli.c). */
#ifndef SONDE_DCLI_H
#define SONDE_DCLI_H

struct serve_session;

/* `sonde dtrace ARGS` (ARGV[0] is "dtrace"): the exit status. */
int dcli_main(int argc, char **argv);
/* The same for sonde serve's session SERVE (NULL: none). */
int dcli_run(int argc, char **argv, const struct serve_session *serve);

#endif
