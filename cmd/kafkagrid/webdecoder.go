package main

import (
	"embed"
	"io/fs"
)

// The browser decoder of the sites build writes (decode.html, site/reference/decoder.go) is
// cmd/kafkagrid-decoder compiled to WebAssembly (package site/webdecoder and its glue, not this
// command). "go generate ./cmd/kafkagrid" compiles it into
// webdecoder/ (gen_webdecoder.go), and the command embeds what it finds there: a kafkagrid
// installed from a release binary has the decoder it was released with, and one installed
// from source has it when it was generated first (the README's install command, .ci and
// test.sh do). A build whose kafkagrid has none leaves the page out and says so.
//
//go:generate go run gen_webdecoder.go

//go:embed webdecoder
var webDecoderFiles embed.FS

// webDecoder returns the browser decoder's files (reference.DecoderWASM and DecoderGlue), or
// nil when this kafkagrid was built without them.
func webDecoder() fs.FS {
	sub, err := fs.Sub(webDecoderFiles, "webdecoder")
	if err != nil {
		return nil
	}
	for _, f := range []string{"kafkagrid.wasm.gz", "wasm_exec.js"} {
		if _, err := fs.Stat(sub, f); err != nil {
			return nil
		}
	}
	return sub
}
