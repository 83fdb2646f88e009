/* inject.h - sonde inject: fail chosen calls in the kernel from the
 * command line (inject.c; docs/fault-injection.md). */
#ifndef SONDE_INJECT_H
#define SONDE_INJECT_H

/* sonde inject ARGS (ARGV[0] is "inject"): the exit status. */
int inject_main(int argc, char **argv);

#endif
