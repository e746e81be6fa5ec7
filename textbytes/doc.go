// Package textbytes reads bytes written as text in any of the forms people paste: plain hex
// ("00 00 00 2a", a hex stream, "0x00 0x2a"), dumps with an offset column (xxd, hexdump -C, od,
// Wireshark's "Copy as Hex Dump", tshark -x, Netty, "Idx | Hex | ASCII" tables with a log
// prefix), annotated listings (hex between heading lines, a label before the bytes), byte lists
// in Go, Rust, C, Java, JavaScript and Python (alone or inside a whole source file or script),
// Erlang and Elixir binaries (<<0::16, "foo"::binary>>), Python struct.pack sequences of
// literals, Node's Buffer JSON, string literals ("\x00\x2a", b'…', bytes.fromhex) and base64;
// and in a whole script, the byte expression it builds from literals wherever it stands
// (byte strings, struct.pack, the Python Kafka clients' Int32.encode(1), int.to_bytes,
// Buffer.concat, a list of hex strings: see parseScript's pieceRules).
//
// Parse tells the forms apart by their content, or reads the form it is given; an error is an
// *Error naming the line and column where the form that read furthest stopped. Only literals
// are read: code that computes bytes is an error naming it, never a guess.
//
// Nothing here knows a protocol. The cost is linear in the text: the memory taken is the
// bytes read plus a small multiple of the text (see Parse), and what the "*" lines of a dump
// expand to is bounded (MaxRepeat).
package textbytes
