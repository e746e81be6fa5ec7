// Package decode is what "kafkagrid decode" does, as a library: read Kafka frames in any form
// people have them (a frame, frames back to back, bytes written as text, a pcap or pcapng
// capture), find the reading of a lone frame that the input does not name (Reader), and write
// the frames as the command prints them: annotated text trees, or JSON Lines (Write,
// WriteStream), with the command's outcome (Status).
//
// A frame as fixtures and logs have it may be whole, lack its size prefix, or be its body
// alone; a response alone does not say its API or version. Reader.Read finds out: the shapes
// the bytes can be, and the versions (of the catalogue's release, and of the other releases
// given, Releases) that read them whole, best first (fewest implausible values: error codes
// Kafka does not define, control bytes in strings; then the most printable strings); the
// notes of the Result say which reading was taken and which others fit. What looks like a
// SASL secret is masked before any reading is tried.
//
// The package reads no files and runs no programs: the command (cmd/kafkagrid) opens the input
// and maps errors to exit statuses (UsageError is an error in the flags, exit status 2), and
// the browser decoder, compiled to WebAssembly, calls the same functions with the page's bytes.
package decode
