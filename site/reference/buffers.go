package reference

import (
	"bytes"
	"html/template"
	"io"
	"sync"
	"unsafe"
)

// buffers are the bytes.Buffers a build fills with one page, sidecar or drawing, writes out
// and drops: kept from one file to the next, each starts at the size of the largest it held
// instead of growing by doubling (growing buffers were most of the bytes a build allocated).
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer given back to the pool; a larger one goes to the collector.
const maxPooled = 8 << 20

// pageBuffers are the buffers of whole pages and sidecars, kept apart from buffers (a page's
// drawings, a few to some tens of KB each): a page taking a drawing's buffer grew it again.
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// getBuffer returns an empty buffer; give it back with putBuffer once its bytes are used.
func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

// putBuffer empties b and keeps it for the next getBuffer. Nothing may hold b's bytes after.
func putBuffer(b *bytes.Buffer) { keep(&buffers, b) }

// getPageBuffer is getBuffer for a whole page or sidecar; give it back with putPageBuffer.
func getPageBuffer() *bytes.Buffer { return pageBuffers.Get().(*bytes.Buffer) }

// putPageBuffer is putBuffer for a buffer of getPageBuffer.
func putPageBuffer(b *bytes.Buffer) { keep(&pageBuffers, b) }

func keep(pool *sync.Pool, b *bytes.Buffer) {
	if b.Cap() > maxPooled {
		return
	}
	b.Reset()
	pool.Put(b)
}

// pageBytes holds the buffers of what one page shows inline (its drawings and their print
// parts): each is written once into a pooled buffer, and the page's view holds it as a string
// of that buffer's bytes, not a copy of them (the copies were a quarter of the bytes a build of
// every version allocated). The strings must not outlive the page: release, once the page and
// its sidecar are written, gives the buffers back for the next page's drawings. The nil
// *pageBytes copies, and holds nothing.
type pageBytes struct{ bufs []*bytes.Buffer }

// html returns what fill writes, as HTML of the page.
func (p *pageBytes) html(fill func(io.Writer) error) (template.HTML, error) {
	buf := getBuffer()
	if err := fill(buf); err != nil {
		putBuffer(buf)
		return "", err
	}
	b := buf.Bytes()
	if p == nil || len(b) == 0 {
		s := string(b)
		putBuffer(buf)
		return template.HTML(s), nil
	}
	p.bufs = append(p.bufs, buf)
	return template.HTML(unsafe.String(unsafe.SliceData(b), len(b))), nil
}

// release gives the buffers back: no string html returned may be used after.
func (p *pageBytes) release() {
	if p == nil {
		return
	}
	for _, b := range p.bufs {
		putBuffer(b)
	}
	p.bufs = nil
}
