#!/bin/bash
printf '#!/usr/bin/env sonde\n'
