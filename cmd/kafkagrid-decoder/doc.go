// Command kafkagrid-decoder is the browser decoder of the sites "kafkagrid build" writes
// (decode.html): package site/webdecoder compiled to WebAssembly (GOOS=js GOARCH=wasm), with
// the glue that hands it the page's requests. It imports only what decoding and drawing one
// exchange need (webdecoder: capture/decode, site/report, site; capture/pcap for captures), not
// the kafkagrid command, so the page loads a fraction of the command's code.
//
// "go generate ./cmd/kafkagrid" compiles it into cmd/kafkagrid/webdecoder/, where the command
// embeds it (cmd/kafkagrid/gen_webdecoder.go). Built for any other platform it only says what
// it is.
package main
