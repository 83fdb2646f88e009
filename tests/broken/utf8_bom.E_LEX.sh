#!/bin/bash
# A UTF-8 byte order mark before the first probe.
printf '\357\273\277BEGIN { }\n'
