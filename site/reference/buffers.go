package reference

import (
	"bytes"
	"sync"
)

// buffers are the bytes.Buffers a build fills with one page, sidecar or drawing, writes out
// and drops: kept from one file to the next, each starts at the size of the largest it held
// instead of growing by doubling (growing buffers were most of the bytes a build allocated).
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer given back to the pool; a larger one goes to the collector.
const maxPooled = 8 << 20

// getBuffer returns an empty buffer; give it back with putBuffer once its bytes are used.
func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

// putBuffer empties b and keeps it for the next getBuffer. Nothing may hold b's bytes after.
func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooled {
		return
	}
	b.Reset()
	buffers.Put(b)
}
