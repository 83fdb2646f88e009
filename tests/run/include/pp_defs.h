// Included by pp_macros.bt: macros and types, as C headers have them.
#pragma once
#ifndef PP_DEFS_H
#define PP_DEFS_H

#include "pp_more.h"

#define KB 1024
#define TO_KB(bytes) ((bytes) / KB)
#define STATE_NAME(s) ((s) == TASK_RUNNING ? "running" : "other")

struct pp_point {
	int x;
	int y;
};

enum pp_color { PP_RED = RED_VALUE, PP_GREEN, PP_BLUE = 0x10UL };

#endif
