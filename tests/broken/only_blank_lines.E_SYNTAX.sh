#!/bin/bash
printf '\n\n   \n\t\n'
