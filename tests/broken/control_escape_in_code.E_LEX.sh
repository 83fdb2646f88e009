#!/bin/bash
# An ESC byte: the message shows '?', never the raw byte.
printf 'BEGIN { \033[31m }\n'
