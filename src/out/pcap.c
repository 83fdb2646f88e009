/* pcap.c - the classic pcap file format: a 24-byte header, then per
 * packet a 16-byte record header (seconds, nanoseconds, captured and
 * original length) and the bytes, all in this machine's byte order
 * (the magic number tells readers which). */
#include "out/pcap.h"

#include <errno.h>

FILE *pcap_open(const char *path)
{
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t thiszone;
		uint32_t sigfigs, snaplen, linktype;
	} h = { PCAP_MAGIC_NS, 2, 4, 0, 0, PCAP_SNAPLEN, PCAP_LINKTYPE_RAW };
	FILE *f = fopen(path, "wb");

	if (!f)
		return NULL;
	if (fwrite(&h, sizeof(h), 1, f) != 1) {
		int err = errno ? errno : EIO;

		fclose(f);
		errno = err;
		return NULL;
	}
	return f;
}

int pcap_write(FILE *f, uint64_t epoch_ns, const void *data, uint32_t len)
{
	uint32_t r[4] = {
		(uint32_t)(epoch_ns / 1000000000u),
		(uint32_t)(epoch_ns % 1000000000u),
		len > PCAP_SNAPLEN ? PCAP_SNAPLEN : len, len,
	};

	if (fwrite(r, sizeof(r), 1, f) != 1 ||
	    (r[2] && fwrite(data, r[2], 1, f) != 1))
		return errno ? -errno : -EIO;
	return 0;
}
