#!/usr/bin/env python3
# prom_query.py BASE QUERY [SECONDS]: ask the Prometheus at BASE
# (http://HOST:PORT) for the instant QUERY until it has a result (for
# up to SECONDS, default 30); print each series as "LABELS VALUE", one
# per line, sorted.  Exit 1 if no result came.
import json
import sys
import time
import urllib.parse
import urllib.request

base, query = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 30
end = time.time() + limit
last = ''
while time.time() < end:
    try:
        url = base + '/api/v1/query?' + urllib.parse.urlencode({'query': query})
        with urllib.request.urlopen(url, timeout=5) as r:
            data = json.load(r)
        res = data.get('data', {}).get('result', [])
        if data.get('status') == 'success' and res:
            lines = []
            for s in res:
                m = s['metric']
                labels = ','.join('%s=%s' % (k, m[k]) for k in sorted(m)
                                  if k not in ('instance', 'job'))
                lines.append('{%s} %s' % (labels, s['value'][1]))
            print('\n'.join(sorted(lines)))
            sys.exit(0)
        last = json.dumps(data)
    except OSError as e:
        last = str(e)
    time.sleep(0.5)
print('no result for %s: %s' % (query, last))
sys.exit(1)
