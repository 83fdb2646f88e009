#!/bin/bash
# 2 MB of NUL bytes: the size is checked before any byte is read as code.
head -c 2000000 /dev/zero
