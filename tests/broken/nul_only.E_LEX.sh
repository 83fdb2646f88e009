#!/bin/bash
printf '\0'
