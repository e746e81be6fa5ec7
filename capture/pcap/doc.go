// Package pcap reads packet captures as tcpdump, Wireshark and dumpcap write them, pcap and
// pcapng, and parses each packet down to its TCP segment: what package capture needs to
// reassemble Kafka's connections, and no more. It is small on purpose (standard library only):
// the browser decoder (cmd/kafkagrid-decoder) links it instead of gopacket's layers.
//
// Reader reads both file formats (told apart by their first four bytes): pcap in either byte
// order, micro- or nanosecond timestamps; pcapng with any number of sections and interfaces,
// each interface's link type, timestamp resolution (if_tsresol) and offset (if_tsoffset),
// enhanced, simple and obsolete packet blocks; other blocks (statistics, name resolution,
// decryption secrets, custom) are skipped.
//
// TCP parses one packet of a link type: Ethernet (with 802.1Q and 802.1ad tags), Linux cooked
// capture v1 and v2 (SLL, SLL2), BSD loopback (null and loop) and raw IP; IPv4 without
// fragments and IPv6 with its hop-by-hop, routing and destination options headers; and the TCP
// header, whose payload is what the packet holds of it.
//
// # Untrusted input
//
// Every input is untrusted: a reader never panics, and what it allocates is bounded by the
// input and by MaxPacket, the largest packet record read (256 KiB, Wireshark's standard
// maximum, or a pcap file's larger snap length; a pcapng block of up to MaxBlock bytes): a
// record or block that says it is larger is an error before any of its memory is taken. An
// error says which record or block, at which offset of the file, and what is wrong with it.
package pcap
