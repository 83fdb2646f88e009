#!/bin/bash
printf 'BEGIN { \377 }\n'
