/* pcap.h - packets as a pcap capture file (libpcap's classic format,
 * which tcpdump -r and wireshark read): skboutput()'s files. */
#ifndef SONDE_PCAP_H
#define SONDE_PCAP_H

#include <stdint.h>
#include <stdio.h>

/* The file's header: nanosecond timestamps, raw IP packets (link type
 * LINKTYPE_RAW, 101), as bpftrace writes them. */
#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_LINKTYPE_RAW 101
#define PCAP_SNAPLEN 262144

/* Create (or truncate) PATH and write the file's header; NULL with
 * errno set on failure. */
FILE *pcap_open(const char *path);
/* One packet: LEN bytes at DATA, captured at EPOCH_NS (ns since
 * 1970); 0 or -errno. */
int pcap_write(FILE *f, uint64_t epoch_ns, const void *data, uint32_t len);

#endif
