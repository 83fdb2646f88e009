#!/bin/bash
# Nothing at all.
