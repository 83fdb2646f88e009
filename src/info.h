/* info.h - probing the kernel's tracing features (--info). */
#ifndef SONDE_INFO_H
#define SONDE_INFO_H

#include <stdio.h>

/* Print "name: yes|no" lines; returns 0. */
int info_print(FILE *f);

#endif
