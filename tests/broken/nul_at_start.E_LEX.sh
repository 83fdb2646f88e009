#!/bin/bash
printf '\0BEGIN { }\n'
