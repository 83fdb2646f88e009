/* fuzz_proto.c - fuzz target: the bytes a client of sonde serve sends,
 * through the frame checks of proto.c and, for a whole request, the
 * service's vetting of its command line (serve_vet_args(), the policy
 * of a user who is not root): what another user controls reaches
 * nothing else before SO_PEERCRED's identity and the policy decide. */
#include "fuzz.h"

#include <stdio.h>

#include "proto.h"
#include "serve.h"

static volatile size_t sink;

int fuzz_proto(const uint8_t *data, size_t size)
{
	struct proto_req r;
	char err[256];

	proto_req_init(&r);
	if (proto_parse(data, size, &r, err, sizeof(err)) == 0) {
		struct serve_policy pol;

		serve_policy_default(&pol, false);
		if (serve_vet_args(&pol, r.argc, r.argv, err, sizeof(err)))
			sink += err[0];
		sink += (size_t)r.argc + (size_t)r.nenv;
	} else {
		sink += err[0];
	}
	proto_req_free(&r);
	return 0;
}

FUZZ_ENTRY(fuzz_proto)
