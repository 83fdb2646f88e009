#!/bin/bash
printf 'BEGIN { $x = 1 +\0 2; }\n'
