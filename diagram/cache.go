package diagram

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"sync"
)

// drawCache keeps the latest drawings a Handler made, by what was asked (type, format, source,
// options), so that a page that shows one diagram many times, or a site rebuilt with few
// changes, is answered without drawing again. It is bounded by entries and by bytes; the least
// recently used go first. Safe for concurrent use.
type drawCache struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int
	size       int
	order      *list.List // of *cached, most recent first
	byKey      map[string]*list.Element
}

type cached struct {
	key  string
	out  *Drawing
	etag string
}

// Cache bounds: a drawing past maxCachedDrawing is not kept.
const (
	cacheEntries     = 512
	cacheBytes       = 32 << 20
	maxCachedDrawing = 4 << 20
)

func newDrawCache() *drawCache {
	return &drawCache{maxEntries: cacheEntries, maxBytes: cacheBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

// cacheKey names a request: a hash of its type, format, source and options, each length-
// prefixed so that no two requests share one.
func cacheKey(r Request) string {
	h := sha256.New()
	put := func(s []byte) {
		var n [8]byte
		l := len(s)
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(s)
	}
	put([]byte(r.Type))
	put([]byte(r.Format))
	put(r.Source)
	for _, k := range slices.Sorted(maps.Keys(r.Options)) {
		put([]byte(k))
		put([]byte(r.Options[k]))
	}
	return string(h.Sum(nil))
}

// etagOf is a drawing's entity tag: a strong tag of its bytes.
func etagOf(data []byte) string {
	sum := sha256.Sum256(data)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

func (c *drawCache) get(key string) (*cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached), true
}

func (c *drawCache) put(key string, out *Drawing) *cached {
	v := &cached{key: key, out: out, etag: etagOf(out.Data)}
	if len(out.Data) > maxCachedDrawing {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cached)
	}
	c.byKey[key] = c.order.PushFront(v)
	c.size += len(out.Data)
	for c.order.Len() > c.maxEntries || c.size > c.maxBytes {
		last := c.order.Back()
		old := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.size -= len(old.out.Data)
	}
	return v
}

// len reports the entries and bytes held.
func (c *drawCache) len() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.size
}
