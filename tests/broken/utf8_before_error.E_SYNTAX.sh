#!/bin/bash
# Multi-byte characters in a string before the error on the same line.
printf 'BEGIN { printf("h\303\251llo w\303\266rld \342\202\254\\n") printf("x"); }\n'
