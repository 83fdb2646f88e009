#!/bin/bash
printf 'BEGIN { $x = 1\177; }\n'
