// Package kafka encodes and decodes Kafka protocol frames byte-exact from Kafka's own JSON
// message schemas (package schemas), and annotates every byte: the annotated frame is a tree
// of nodes (frame, header, body, structs, arrays, elements, fields, and the framing the wire
// format adds: size, lengths, tagged-field sections, tag keys and sizes) that knows each
// piece's byte offset, length, path, wire type, value and schema field. The byte grids, the
// trees, the HTML pages, the JSON and the test vectors of kafkagrid are all views of it.
//
// The package is the codec, the annotated frame and the example values only: it imports none
// of the drawing packages. Package site/kafkaview turns an annotated frame into the inputs of
// bytegrid and tree.
//
// The wire format is the one of the Kafka protocol guide,
// https://kafka.apache.org/protocol.html, with flexible versions (KIP-482: compact strings,
// bytes and arrays as unsigned varint length+1, tagged fields) and record batches of magic 2
// (https://kafka.apache.org/documentation/#recordbatch, KIP-98), or the legacy message sets of
// magic 0 and 1 (https://kafka.apache.org/documentation/#messageset).
//
// # The catalogue and the examples
//
// A Catalog (catalog.go) lists the APIs of a schema release. For each API, Example builds a
// minimal, realistic body of its request or response at a version from the story below: every
// array has one element unless the story says otherwise, nullable fields take a value unless
// null is the point (an error message next to error code 0 is null), strings are short and
// meaningful, numbers follow the field's entityType and name, uuids are readable
// (00000000-0000-4000-8000-000000000001), and schema defaults fill the rest. Tagged fields
// keep their defaults, so they are not written, as Kafka's serializer does, unless an example
// sets them. A records field holds real record batches with a correct CRC-32C (a legacy
// message set in Produce v0-v2 and Fetch v0-v3). A number a field's name would choose that its
// type cannot hold gives way to the field's own value, and Vectors reports it (Misfit). Nothing
// is random.
//
// Hand-chosen values live in the project's examples/kafka/<ApiName>.yaml (built into the
// binary by package kafkaexamples; VectorOptions.Examples takes another folder), merged over
// the generated ones; an override naming an unknown field, a field absent at the version,
// or a value of the wrong type is an error naming the file, line and field path. Vectors
// encodes every API's request and response pair with the same correlation id.
//
// # The story
//
// Every value comes from one small cluster (story.go): three brokers and a controller, the
// topics orders and shipments with their ids, partitions with leader, replicas, ISR and offline
// replicas, the log of orders-0, the consumer group payments, the share group payments-share,
// the transactional producer txn-orders-1 (producer id 4000), the user alice and her
// delegation token, the client id kafkagrid. It is examples/kafka/cluster.yaml, built in
// (BuiltinStory; ParseStory checks its rules). So the frames agree with each other: the batch
// Produce sends (base offset 0, leader epoch -1, as a producer writes it) is the batch a Fetch
// response returns at offset 42, the offset Produce's response gave, stamped with the leader's
// epoch 5 and followed by the marker that committed its transaction. The tests check the
// story's rules over every example of every release, and send the examples to franz-go's
// kfake, a Kafka-protocol server, which answers them without error (kfake_test.go).
//
// # Values named
//
// Error codes have one table (ErrorCodes, LookupErrorCode, ErrorName: code, name, whether
// retriable), kept against franz-go's kerr; the enumerations the schemas use with well-known
// values (ACL resource type, pattern type, ACL operation and permission, config resource type,
// source, type and operation, coordinator type, isolation level, SCRAM mechanism) are named by
// EnumOf and ValueName. The annotated frame writes the name after an integer's value
// ("ErrorCode = 3 → UNKNOWN_TOPIC_OR_PARTITION", "IsolationLevel = 1 → READ_COMMITTED"), so
// every view shows it. BatchAttributeBits and DescribeBatchAttributes break out a record
// batch's attributes, LegacyAttributeBits a legacy message's; AttributeBit.Of reads one field's
// value and AttributeBit.Meaning names it ("none", "LogAppendTime", "true"), so the grid and
// the tree break the attributes into bits from this one table.
//
// # Edge cases
//
// Catalog.EdgeCases builds, beside the regular examples, the frames client and proxy authors
// trip on, from the same story: the ApiVersions fallback (a v0 response with
// UNSUPPORTED_VERSION), tagged fields in a response's header and body, a follower's fetch,
// null against empty arrays and strings, and error responses for a topic that does not exist.
//
// # Encoding and decoding: one walker
//
// Catalog.Encode writes a whole frame: the int32 size, the header, the body. The header is
// itself encoded from the RequestHeader or ResponseHeader spec, at the version HeaderVersion
// derives (request v2 when the request version is flexible, else v1; response v1 when
// flexible, else v0; ApiVersions responses always v0). The request header's client id stays a
// classic nullable string in v2 (its field overrides flexibleVersions).
//
// Catalog.Decode walks the same schema over a frame and yields the same tree: encoding and
// decoding share one walker (walk.go) that drives a codec, either the writer or the reader
// (codec.go), so the two cannot disagree about the layout; decode(encode(x)) gives the same
// tree and the same bytes. Requests name their API and version in their header; for a
// response the caller names them. Frames from elsewhere may say more than the values keep: a
// tag the schema does not know shows in the tree (its bytes as a data node) but not in the
// values, and a tagged field written at its default value is not written again, so
// re-encoding their values gives the same values, not always the same bytes.
//
// # Errors and untrusted input
//
// Decode takes untrusted bytes. A truncated, overlong or malformed frame gives an *Error with
// the byte offset and the field path where decoding failed, e.g.
//
//	kafka: Heartbeat v4 request: MemberId#length: offset 37: length 20 exceeds the 3 bytes left
//
// together with the frame decoded up to that point. Every length, count and size prefix is
// checked against the bytes left before anything is allocated, so a hostile frame cannot make
// Decode allocate much more than a small multiple of its own size, and the tree has at most
// DecodeOptions.MaxNodes nodes (DefaultMaxNodes, about a million), so that a frame of tiny
// repeated fields cannot cost gigabytes either. Decode does not panic.
// Values read alias the input: bytes fields and Frame.Bytes share its memory.
//
// # Compressed record batches and legacy message sets
//
// A record batch compressed with gzip, snappy (raw blocks, or the xerial framing Java clients
// write), lz4 (frames; the header checksum Kafka before 0.10 computed over the magic number
// too is accepted with a note, KAFKA-3160) or zstd keeps its compressed bytes as one field
// ("…Records#compressed"); the records inside are decoded into a nested tree (the field's
// Raw, a *Compressed) whose offsets count from the start of the decompressed data. The text
// tree and the JSON show it under the field. Decompression is bounded: the batches of one
// frame inflate to DecodeOptions.MaxDecompressed bytes together (DefaultMaxDecompressed, 64
// MiB), a bomb is an error wrapping ErrDecompressedTooLarge, and reading stops there (about
// 2.2 times the limit allocated at most, transiently). Encoding compresses a batch whose
// Attributes name a codec (VectorOptions.Compression does so for the examples).
//
// A records field may also hold a legacy message set (magic 0 or 1, before KIP-98), told
// apart by the magic byte: its value is a MessageSet of LegacyMessage, and a compressed
// wrapper message's value is decoded the same way, its inner messages a nested tree. Both
// directions work, so such frames round-trip too. Each entry is read by its own magic byte,
// as Kafka's client reads them: a field may mix batches and messages (a log written before
// and after a message-format change), and a last entry cut short, as a broker sends where a
// fetch's byte limit ends the field, is kept as a partial entry ("partial: N of M bytes");
// such a field's value is Records. The examples of Produce v0-v2 and Fetch
// v0-v3 are message sets in every release (the story's record, with magic 1's timestamp), and
// VectorOptions.Compression writes a codec only where Kafka takes it (zstd from Produce v7 and
// Fetch v10, KIP-110; never in a message set).
//
// # Frames inside frames
//
// An Envelope (KIP-590) carries a whole request or response, without its size prefix, in its
// RequestData or ResponseData. Encode and Decode read that frame once, with the frame's own
// limits: the content leaf's Raw is an *Embedded holding the nested frame and its tree
// re-based to the outer frame's offsets and paths ("RequestData.header.RequestApiKey"). A
// nested response names neither its API nor its version, so it is read only as the answer to
// a known request (Message.Request, DecodeOptions.Request, DecodeResponse). Compressed
// batches, legacy wrappers and Envelope payloads are the three nested frames; a drawing of a
// frame finds all three in its nodes and decodes nothing itself.
//
// # What kafkagrid knows beyond the schemas
//
// The schemas say which fields a message has; apis.go holds the rest, one row an API name
// (Facts, FactsOf): the key's name as a constant (KeyProduce …), the API's purpose and the
// index's category, whether it only reads (probe sends it without -write), whether it carries
// records, and the header quirks: ControlledShutdown v0's request header v0, ApiVersions'
// response header v0 and the KIP-511 fallback (DecodeResponse), SaslHandshake v0's bare SASL
// tokens (KIP-43), Envelope's nested frame. Catalog.ExampleBody is the example every command
// sends or draws.
//
// # Concurrency
//
// A Catalog is read-only once built: Encode, Decode, Example and Vectors may run concurrently.
// An Encoder or a Decoder (which share node blocks across many frames, for speed) belongs to
// one goroutine. Frames and nodes are plain values owned by the caller.
//
// # Performance
//
// Encoding and annotating the 168 example frames of 4.0 takes under 1 ms on one core, and so
// does decoding them (BenchmarkEncodeAll, BenchmarkDecodeAll, -cpu 1; the README's table of
// speeds gives the times measured, the one place they are written). Most of
// the cost is the tree itself: some 27 nodes per frame (168 bytes each), each with its path
// and display value, and the garbage collector's share of marking them and of the pointer
// writes that fill them.
//
// An Encoder or a Decoder therefore carves what it can from shared blocks instead of
// allocating per node: nodes from 32 KiB slabs, children slices from 4 KiB blocks, the paths
// and display values from an append-only text arena (strconv.Append… and copies into one
// buffer; bytes once handed out as a string are never written again), and, decoding, the
// element slices of arrays (capped: appending to one copies it). Encoding then allocates
// about 4 times per frame (the Frame and its header Values); decoding about 14, adding what
// the returned Values need: a map per struct, a box per array, string and large integer. The
// price is retention: a frame, or one string of it, keeps its blocks alive, with the
// neighbouring frames' nodes and texts; copy what you keep long from many short-lived frames.
// A caller done with each frame soon (a capture streamed) decodes with DecodeOptions.Recycle
// instead: each frame's tree in pooled blocks of its own, which Frame.Release gives back for
// the next frames (recycle.go): decoding a capture then allocates about 3.8 KB a frame
// instead of 28 KB, a seventh of the bytes for the collector to free.
//
// While the collector marks (a third to a half of the time in the benchmarks, whose live heap
// is small), every pointer stored into the heap passes a write barrier. The writer and the
// text arena therefore grow their buffers in place, storing only the new length, and the
// strings that need no escaping are quoted without strconv's per-rune work: together some 11%
// fewer instructions per encoded frame and 7% per decoded one (valgrind --tool=cachegrind).
package kafka
