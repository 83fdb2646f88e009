/* dcli.h - dtrace(1)'s command line (dcli.c). */
#ifndef SONDE_DCLI_H
#define SONDE_DCLI_H

/* `sonde dtrace ARGS` (ARGV[0] is "dtrace"): the exit status. */
int dcli_main(int argc, char **argv);

#endif
