//go:build js && wasm

package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"runtime/debug"
	"sync"
	"syscall/js"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// main is the browser decoder's (decode.html): it sets kafkagrid.decode(request, bytes) on the
// page's global kafkagrid object, which returns the JSON of a pageResult, and
// kafkagrid.prepare(release), tells the page it is ready, and waits for calls. The release data are the page's kafkagrid.releases[name]
// (Uint8Array of the JSON of a pageRelease), set by the scripts the page loads on demand; each
// is parsed once, when first needed.
func main() {
	// The page is one thread: a collection is work the reader waits for, and reading a
	// release's schemas allocates much that lives (its specs and catalogue).
	debug.SetGCPercent(400)
	var (
		mu   sync.Mutex
		cats = map[string]*kafka.Catalog{}
		errs = map[string]error{}
	)
	g := js.Global().Get("kafkagrid")
	load := func(name string) (*kafka.Catalog, bool, error) {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := cats[name]; ok {
			return c, true, nil
		}
		if err, ok := errs[name]; ok {
			return nil, true, err
		}
		v := g.Get("releases").Get(name)
		if v.IsUndefined() || v.IsNull() {
			return nil, false, nil
		}
		b, err := pageBytes("the data of Kafka "+name, v.Get("length").Int(), maxReleaseData, func(b []byte) { js.CopyBytesToGo(b, v) })
		if err != nil {
			errs[name] = err
			return nil, true, err
		}
		c, err := releaseFromData(b)
		if err != nil {
			err = fmt.Errorf("Kafka %s: %w", name, err)
			errs[name] = err
			return nil, true, err
		}
		cats[name] = c
		return c, true, nil
	}
	var names []string
	for i, n := 0, g.Get("names").Length(); i < n; i++ {
		names = append(names, g.Get("names").Index(i).String())
	}
	rels := pageReleases{names: names, load: load}
	g.Set("decode", js.FuncOf(func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				b, _ := json.Marshal(pageResult{Status: exitInternal, Stderr: "kafkagrid: " + internalError{r, nil}.Error()})
				out = string(b)
			}
		}()
		var q pageRequest
		if n := js.Global().Call("Object", args[0]).Get("length").Int(); n > maxPageRequest { // a string's length, without copying it
			b, _ := json.Marshal(pageResult{Status: 2, Stderr: fmt.Sprintf("kafkagrid: decode: the page's request is %d characters, more than %d\n", n, maxPageRequest)})
			return string(b)
		}
		if err := json.Unmarshal([]byte(args[0].String()), &q); err != nil {
			b, _ := json.Marshal(pageResult{Status: 2, Stderr: "kafkagrid: decode: the page's request: " + err.Error() + "\n"})
			return string(b)
		}
		// The input's size is checked before it is copied: as decode's, at most maxInput.
		n := args[1].Get("length").Int()
		if err := pageInputSize(cmp.Or(q.Name, "-"), n); err != nil {
			var stderr bytes.Buffer
			b, _ := json.Marshal(pageResult{Status: exitCode(err, &stderr), Stderr: stderr.String()})
			return string(b)
		}
		data, _ := pageBytes("the input", n, maxInput, func(b []byte) { js.CopyBytesToGo(b, args[1]) })
		b, err := json.Marshal(pageDecode(context.Background(), rels, q, data))
		if err != nil {
			b, _ = json.Marshal(pageResult{Status: 1, Stderr: "kafkagrid: decode: " + err.Error() + "\n"})
		}
		return string(b)
	}))
	// prepare(name) reads a release's schemas ahead of the first decode that needs them.
	g.Set("prepare", js.FuncOf(func(this js.Value, args []js.Value) any {
		_, ok, err := load(args[0].String())
		return ok && err == nil
	}))
	g.Call("ready")
	select {}
}

// webDecoder is nil in the browser decoder itself: it builds no sites.
func webDecoder() fs.FS { return nil }
