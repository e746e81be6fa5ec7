// Package capture reads Kafka traffic as people have it: frames back to back (.bin), bytes
// written as text in any of the forms people paste (ParseText, package textbytes: plain hex, dumps with an offset
// column from xxd, hexdump -C, od, Wireshark, tshark -x and Netty, tester tables with log
// prefixes, annotated listings (hex with comments between heading lines, a label before the
// bytes), byte lists in Go, Rust, C, Java, JavaScript and Python, Erlang and Elixir binaries
// (<<0::16, "foo"::binary>>), Python struct.pack sequences of literals, Node's Buffer JSON,
// string literals, base64; told apart by their content, read in time linear in the text), and pcap or
// pcapng captures, and decodes every frame with package kafka.
//
// A capture is read with package pcap (pure Go, the standard library only: no libpcap). Its TCP
// connections to the Kafka ports (9092 by default), and those on any port whose first bytes
// are a Kafka request, are reassembled per direction: segments are ordered by sequence number
// (which wraps), retransmitted bytes are taken once, segments that arrived out of order are
// put in place, and frames cut across segments are joined. A hole in a stream (bytes never
// captured) ends that direction with a note. Requests come from the client's stream,
// responses from the server's; a response is paired with its request by correlation id, so
// its API, version and header version are known (an ApiVersions request at a version the
// broker does not speak gets a v0 answer, KIP-511: read so, with a note). After a
// SaslHandshake v0 the SASL tokens travel bare (a size and the mechanism's bytes, KIP-43): they
// are read as tokens (Message.Token), paired in order, until the client's frames read as Kafka
// requests again. A response without its request is decoded when Options names its API, else
// reported as unpaired. Frames with no direction (a .bin file, a hex dump) are told apart by
// their content: a frame whose correlation id answers an earlier request is its response, else
// one that reads as a request is a request.
//
// Package capture/probe's Client is the other way to get a connection's exchanges: it speaks
// to a broker itself, as kafkagrid probe does (ApiVersions first, SASL PLAIN or SCRAM, then the examples of
// the APIs asked at the highest version both sides speak), and records what it sends and reads
// as a Conn, the same value Read makes of a capture.
//
// # Untrusted input
//
// Every input is untrusted. Read never panics; it fails only when the input cannot be read at
// all. A frame that does not decode keeps the tree decoded up to the failing byte and the
// error (offset, field path, what); the rest still decodes. A frame size over Options.MaxFrame
// (100 MiB by default, Kafka's socket.request.max.bytes) or negative stops that direction with
// a note, so a 2 GiB size allocates nothing; compressed batches inflate to at most
// Options.MaxDecompressed per frame (64 MiB by default) and Options.MaxInflated for the whole
// input (256 MiB). Memory is then bounded by the input and by those limits and
// Options.MaxNodes: the capture, its reassembled streams (once more), the decoded data of
// compressed batches, and the annotated trees, which are the bulk: some 350 bytes a node
// with its path and value texts (7.8 KB a frame of the examples, about 60 times its bytes, in
// BenchmarkRead; a frame of tiny repeated fields, 250 times). The trees of one input have at
// most Options.MaxNodes nodes together (DefaultMaxNodes, about a million: some 400 MB): a
// frame stops where the limit is reached, and the frames after it are not decoded; plus,
// while one batch inflates, about 2.2 times the decompression limit. A batch that fails to
// inflate counts what it inflated against both limits, as one that succeeds does.
//
// Frames and connections count too, so that the memory is bounded whatever the mix: at most
// Options.MaxFrames frames are listed (a Message, an Exchange and its error each, some 850 bytes;
// DefaultMaxFrames, 262,144) and Options.MaxConns connections read (DefaultMaxConns, 65,536; some
// 1 KB each); the rest are counted (Result.Unlisted, Result.SkippedConns) with a note and not kept.
// A capture's packets are read one at a time (a segment that arrives ahead of a missing one is
// copied until the gap fills), and each frame's bytes copied once out of its stream. In all,
// Read costs some 10 times the input plus those limits' worth (TestFrameBudgetMemory,
// TestConnBudgetMemory count it); Stream, the limits of the frames and connections in flight.
//
// # Streaming
//
// Stream reads the same inputs as Read and passes each exchange on as it completes (a request
// when its response arrives; a lone side when its connection ends), keeping none: a capture is
// read packet by packet from an io.Reader, each direction reassembled as its segments come
// and cut into frames as soon as a frame is whole, and a connection's state is dropped when it
// ends (FIN from both sides, or RST). Its limits are per frame and per connection, not per
// input: a frame of at most Options.MaxFrame bytes, Options.MaxNodes fields and
// Options.MaxDecompressed inflated bytes; a direction holds at most Options.MaxWindow bytes
// ahead of a missing segment (16 MiB; past it the hole is taken as lost and the direction is
// read up to it, with a note), a connection at most Options.MaxInFlight requests waiting for
// their answer (1,024; past it the oldest is passed on unanswered, with a note; a capture of
// the client's side alone so costs no more than a full one). A response whose request is not
// whole yet (a segment of the request came late) waits for the client's next 16 frames. Memory
// is then the open connections' windows and the trees of the frames in flight, whatever the
// capture's size (TestStreamMemoryFlat counts the messages and bytes held at once: the same at
// 2,000 and 20,000 frames). Read is Stream's core keeping every exchange, with limits for the
// whole input, since it keeps every tree. Frames and hex dumps are read whole by both (a
// pasted text is small; the caller bounds its size).
//
// # Secrets
//
// Read replaces the secrets frames carry (a SASL PLAIN password, a SCRAM proof, an OAUTHBEARER
// token, delegation token HMACs; kafka.Redact) with '*' in the Message's bytes and tree, bare
// KIP-43 tokens included, and says so in a note: no output made from a Result shows them.
//
// # Concurrency
//
// Read and Stream are safe to call concurrently; a Result is owned by its caller, and so is
// what Stream passes to its callback (called on Stream's goroutine, one exchange at a time).
// With Options.Recycle, what the callback is given is its own only until it returns.
package capture
