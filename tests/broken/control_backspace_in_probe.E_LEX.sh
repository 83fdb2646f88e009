#!/bin/bash
printf 'BEGIN { } \010\n'
