//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"syscall/js"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// main sets on the page's kafkagrid object: decode(request, bytes), the JSON of a
// webdecoder.Result; json(), the JSON and notes of the last decode; report(), the list of its
// report's files; file(path), one of them, written then; and prepare(release), which reads a
// release's schemas ahead of the first decode. It tells the page it is ready, and waits. The
// release data are the page's kafkagrid.releases[name] (Uint8Array of a release's JSON, set by
// the scripts the page loads on demand), each read once, when first needed.
func main() {
	// The page is one thread: a collection is work the reader waits for, and reading a
	// release's schemas allocates much that lives (its specs and catalogue).
	debug.SetGCPercent(400)
	g := js.Global().Get("kafkagrid")
	var names []string
	for i, n := 0, g.Get("names").Length(); i < n; i++ {
		names = append(names, g.Get("names").Index(i).String())
	}
	rl := &releases{g: g, cats: map[string]*kafka.Catalog{}, errs: map[string]error{}}
	d := webdecoder.New(webdecoder.Releases{Names: names, Load: rl.load})
	g.Set("decode", js.FuncOf(func(this js.Value, args []js.Value) any {
		return safely(func() any { return decodeCall(d, args) })
	}))
	g.Set("json", js.FuncOf(func(js.Value, []js.Value) any {
		return safely(func() any {
			text, notes, err := d.JSON()
			return webdecoder.JSONAnswer(text, notes, errText(err))
		})
	}))
	g.Set("report", js.FuncOf(func(js.Value, []js.Value) any {
		return safely(func() any {
			files, first, err := d.Report()
			return webdecoder.ReportAnswer(files, first, errText(err))
		})
	}))
	g.Set("file", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return safely(func() any {
			s, err := d.File(args[0].String())
			if err != nil {
				return ""
			}
			return s
		})
	}))
	g.Set("prepare", js.FuncOf(func(_ js.Value, args []js.Value) any {
		_, ok, err := rl.load(args[0].String())
		return ok && err == nil
	}))
	g.Call("ready")
	select {}
}

// decodeCall is kafkagrid.decode(request, bytes): the request (JSON) and the input's size
// checked before either is copied.
func decodeCall(d *webdecoder.Decoder, args []js.Value) any {
	n := js.Global().Call("Object", args[0]).Get("length").Int() // a string's length, without copying it
	if n > webdecoder.MaxRequest {
		return answer(&webdecoder.Result{Status: 2, Stderr: fmt.Sprintf("kafkagrid: decode: the page's request is %d characters, more than %d\n", n, webdecoder.MaxRequest)})
	}
	q, err := webdecoder.ParseRequest([]byte(args[0].String()))
	if err != nil {
		return answer(&webdecoder.Result{Status: 2, Stderr: "kafkagrid: " + err.Error() + "\n"})
	}
	size := args[1].Get("length").Int()
	if err := webdecoder.InputSize(q.Name, size); err != nil {
		return answer(&webdecoder.Result{Status: 1, Stderr: "kafkagrid: " + err.Error() + "\n"})
	}
	data, err := webdecoder.Bytes("the input", size, webdecoder.MaxInput, func(b []byte) { js.CopyBytesToGo(b, args[1]) })
	if err != nil {
		return answer(&webdecoder.Result{Status: 1, Stderr: "kafkagrid: " + err.Error() + "\n"})
	}
	r := d.Decode(context.Background(), q, data)
	return answer(&r)
}

// releases loads the page's releases, each once.
type releases struct {
	g    js.Value
	cats map[string]*kafka.Catalog
	errs map[string]error
}

func (r *releases) load(name string) (*kafka.Catalog, bool, error) {
	if c, ok := r.cats[name]; ok {
		return c, true, nil
	}
	if err, ok := r.errs[name]; ok {
		return nil, true, err
	}
	v := r.g.Get("releases").Get(name)
	if v.IsUndefined() || v.IsNull() {
		return nil, false, nil
	}
	b, err := webdecoder.Bytes("the data of Kafka "+name, v.Get("length").Int(), webdecoder.MaxReleaseData, func(b []byte) { js.CopyBytesToGo(b, v) })
	if err == nil {
		var c *kafka.Catalog
		if c, err = webdecoder.Release(b); err == nil {
			r.cats[name] = c
			return c, true, nil
		}
		err = fmt.Errorf("Kafka %s: %w", name, err)
	}
	r.errs[name] = err
	return nil, true, err
}

// answer is r as the JSON the page parses.
func answer(r *webdecoder.Result) any { return r.JSON() }

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "kafkagrid: " + err.Error() + "\n"
}

// safely calls f, a panic answered as the command's internal error (exit status 70).
func safely(f func() any) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = answer(&webdecoder.Result{Status: 70, Stderr: fmt.Sprintf("kafkagrid: internal error (a bug in kafkagrid; please report it with the command line): %v\n%s", r, debug.Stack())})
		}
	}()
	return f()
}
