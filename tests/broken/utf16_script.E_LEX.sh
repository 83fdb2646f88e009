#!/bin/bash
# A script saved as UTF-16LE, with its byte order mark.
printf '\377\376B\0E\0G\0I\0N\0 \0{\0 \0}\0\n\0'
