/* proto.h - the wire protocol between `sonde` run without privileges
 * (client.c) and `sonde serve` (serve.c), over a Unix stream socket.
 * docs/sonde-serve.8 documents it; version 1:
 *
 *   frame := u32 length (little-endian, of the payload) | u8 type |
 *            payload
 *
 * From the client, in this order: 'V' (payload: u32 version), then any
 * number of 'A' (one argument of sonde's command line, argv[1] first),
 * one 'C' (the working directory, absolute), any number of 'E'
 * (NAME=VALUE of the environment sonde reads: BPFTRACE_*, SONDE_*,
 * TZ, LANG, LC_*, NO_COLOR, TERM, PATH, HOME), then 'G' with the
 * client's standard input, output and error passed as SCM_RIGHTS;
 * later only 'I' (the user pressed Ctrl-C: stop as sonde does on
 * SIGINT).  From the service: 'V' (u32 version) in answer to 'V', 'R'
 * (a refusal, text) before 'G', 'X' (u32 exit status) at the end.
 *
 * The service trusts nothing in a request: proto_feed() checks every
 * frame, and the identity comes from the socket (SO_PEERCRED). */
#ifndef SONDE_PROTO_H
#define SONDE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION 1
#define PROTO_MAX_FRAME (1u << 20)	/* payload bytes */
#define PROTO_MAX_ARGS 4096
#define PROTO_MAX_ENV 256
#define PROTO_MAX_TOTAL (4u << 20)	/* bytes of a whole request */
#define PROTO_HEADER 5

enum proto_type {
	PROTO_T_VERSION = 'V', PROTO_T_ARG = 'A', PROTO_T_CWD = 'C',
	PROTO_T_ENV = 'E', PROTO_T_GO = 'G', PROTO_T_INTR = 'I',
	PROTO_T_REFUSE = 'R', PROTO_T_EXIT = 'X',
};

/* A request as it is read; every string malloc'd and NUL-terminated. */
struct proto_req {
	bool versioned;		/* 'V' came */
	uint32_t version;
	char **argv;		/* argv[0] is "sonde"; argc + 1 slots, NULL last */
	int argc;
	char *cwd;
	char **env;
	int nenv;
	bool go;		/* 'G' came: the request is whole */
	size_t total;		/* payload bytes so far */
};

void proto_req_init(struct proto_req *r);
void proto_req_free(struct proto_req *r);
/* One frame of TYPE with payload P (LEN bytes) into R: 0, or -1 with
 * what is wrong in ERR. */
int proto_feed(struct proto_req *r, int type, const uint8_t *p, size_t len,
	       char *err, size_t errlen);
/* The frame header at H (PROTO_HEADER bytes): its payload length and
 * type; -1 if the length passes PROTO_MAX_FRAME. */
int proto_header(const uint8_t *h, uint32_t *len, int *type);
/* A frame's header into H for TYPE and LEN payload bytes. */
void proto_put_header(uint8_t *h, int type, uint32_t len);
/* Whether the client may pass environment variable NAME=... on. */
bool proto_env_allowed(const char *kv);
/* A whole byte stream of frames (the fuzz target): 0 if every frame
 * was accepted and the request is whole, else -1. */
int proto_parse(const uint8_t *data, size_t len, struct proto_req *r,
		char *err, size_t errlen);

#endif
