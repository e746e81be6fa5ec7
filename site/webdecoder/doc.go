// Package webdecoder is the Go side of the browser decoder (decode.html of a built site): what
// the page asks (Request: decode's flags as its controls set them), what it shows (Result:
// decode's text, its error and exit status, and the drawing of the first exchange), and, only
// when the reader opens them, the JSON (Decoder.JSON) and the report decode -o writes
// (Decoder.Report, each file written when it is asked for, Decoder.File).
//
// It calls what "kafkagrid decode" calls (package capture/decode to read and write, package
// site/report for the report, package site for the drawing), so the page answers as the command
// does: the same text, JSON, errors, exit status and report files for the same input and flags.
// cmd/kafkagrid-decoder compiles it to WebAssembly with the page's glue; it links no more
// than decoding and drawing need (no network, no TLS, no PDF, no YAML readers of grids).
//
// Every input is untrusted: the sizes of what the page hands over are checked before their
// memory is taken (Bytes: the input as decode's MaxInput, a release's data MaxReleaseData, a
// request MaxRequest), and a decode is bounded as decode's is (capture.Options).
package webdecoder
