#!/usr/bin/env python3
# http_get.py URL: GET URL; print the status and Content-Type on the
# first line, then the body (the metrics tests read sonde --metrics).
import sys
import urllib.error
import urllib.request

try:
    r = urllib.request.urlopen(sys.argv[1], timeout=10)
    print(r.status, r.headers.get('Content-Type'))
    sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get('Content-Type'))
    sys.stdout.write(e.read().decode())
except OSError as e:
    print('error', e)
    sys.exit(1)
