#!/bin/bash
# \f and \v are blanks; the missing operand is still found.
printf 'BEGIN {\f$x\v=\f;\v}\n'
