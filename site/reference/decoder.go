package reference

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// The browser decoder: decode.html, a page where a reader pastes bytes in any form "kafkagrid
// decode" reads, or drops a .bin, .pcap or .pcapng file, and sees what the command shows: the
// byte grid and tree of the first exchange, the text tree, and on demand the JSON and the
// report decode -o writes (each page written when it is opened). The decoder is
// cmd/kafkagrid-decoder (package site/webdecoder) compiled to WebAssembly (GOOS=js
// GOARCH=wasm): the command's own reading, decoding and drawing code, run in the page, with
// no server.
//
//	decode.html               the page (its controls say in words what decode's flags say)
//	decode/decode.js          the page's script
//	decode/wasm_exec.js       the Go toolchain's glue for the WebAssembly, as that toolchain ships it
//	decode/kafkagrid.js       the WebAssembly, gzipped, as a script that hands it to the page
//	decode/release-<rel>.js   each release's schemas (the spec files' text, verbatim, as
//	                          webdecoder.AppendRelease lays them out), gzipped,
//	                          loaded when the page first needs them
//
// Everything is a script the page loads with <script src>, never fetch: Chromium and Firefox
// refuse fetch and XHR of a file:// page's own files, and a script is what every browser loads
// from a folder opened as files and from any static host alike. The gzip is undone in the page
// (DecompressionStream: Chromium 80, Firefox 113, Safari 16.4).

// DecoderWASM and DecoderGlue are the files Options.Decoder holds: the command compiled with
// GOOS=js GOARCH=wasm, gzipped, and the wasm_exec.js of the toolchain that compiled it
// ($(go env GOROOT)/lib/wasm/wasm_exec.js), which must go with it.
const (
	DecoderWASM = "kafkagrid.wasm.gz"
	DecoderGlue = "wasm_exec.js"
)

// DecoderPage is the browser decoder's page below the output folder.
const DecoderPage = "decode.html"

//go:embed decode.js
var decodeJS []byte

// decoderFiles lists the files of the browser decoder for the releases rels.
func decoderFiles(rels []string) []string {
	out := []string{DecoderPage, "decode/decode.js", "decode/wasm_exec.js", "decode/kafkagrid.js"}
	for _, r := range rels {
		out = append(out, decoderRelease(r))
	}
	return out
}

func decoderRelease(rel string) string { return "decode/release-" + rel + ".js" }

// decodeView is what decode.html shows.
type decodeView struct {
	Generator string
	Title     string
	Home      string // the index's link and name
	HomeName  string
	Releases  []decodeRelease // in the site's order, oldest first
	Pick      string          // the release picked at first: the newest
}

type decodeRelease struct {
	Name string
	APIs string // the API names, space-separated, for the -api list
}

// writeDecoder writes the browser decoder of the catalogues cats (oldest first) into o, the
// page's index being home.
func writeDecoder(o *outdir.Folder, assets fs.FS, cats []*kafka.Catalog, home, homeName string) error {
	// The WebAssembly (5 MB gzipped) is streamed from assets into its script, not read whole.
	wasm, err := assets.Open(DecoderWASM)
	if err != nil {
		return fmt.Errorf("reference: the browser decoder: %w", err)
	}
	defer wasm.Close()
	wasmR := bufio.NewReader(wasm)
	if magic, err := wasmR.Peek(2); err != nil && err != io.EOF {
		return fmt.Errorf("reference: the browser decoder: %s: %w", DecoderWASM, err)
	} else if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return fmt.Errorf("reference: the browser decoder: %s is not gzip", DecoderWASM)
	}
	glue, err := fs.ReadFile(assets, DecoderGlue)
	if err != nil {
		return fmt.Errorf("reference: the browser decoder: %w", err)
	}
	v := decodeView{Generator: "kafkagrid", Home: home, HomeName: homeName}
	for _, c := range cats {
		rel := c.Release.Name()
		var names []string
		for _, a := range c.APIs {
			names = append(names, a.Name)
		}
		v.Releases = append(v.Releases, decodeRelease{Name: rel, APIs: strings.Join(names, " ")})
		data, err := decoderData(c)
		if err != nil {
			return err
		}
		if err := o.Create(decoderRelease(rel), dataScript("release", rel, bytes.NewReader(data))); err != nil {
			return err
		}
	}
	if len(cats) == 0 {
		return fmt.Errorf("reference: the browser decoder: no release")
	}
	v.Pick = v.Releases[len(v.Releases)-1].Name
	v.Title = "Decode bytes · Kafka " + v.Releases[0].Name
	if len(cats) > 1 {
		v.Title += " – " + v.Pick
	}
	if err := o.Create("decode/kafkagrid.js", dataScript("wasm", "", wasmR)); err != nil {
		return err
	}
	if err := o.Write("decode/wasm_exec.js", glue); err != nil {
		return err
	}
	if err := o.Write("decode/decode.js", decodeJS); err != nil {
		return err
	}
	t, err := decodeTemplate()
	if err != nil {
		return err
	}
	return o.Create(DecoderPage, func(w io.Writer) error {
		if err := t.ExecuteTemplate(w, "decode", v); err != nil {
			return fmt.Errorf("reference: %s: %w", DecoderPage, err)
		}
		return nil
	})
}

// decoderData is a release's schemas as the page reads them (webdecoder.AppendRelease: its
// name, then each spec file's name, size and text verbatim), gzipped.
func decoderData(c *kafka.Catalog) ([]byte, error) {
	files := make([]webdecoder.ReleaseFile, 0, len(c.Release.Specs))
	for _, s := range c.Release.Specs {
		files = append(files, webdecoder.ReleaseFile{Name: s.File, Text: s.Raw})
	}
	raw, err := webdecoder.AppendRelease(nil, c.Release.Name(), files)
	if err != nil {
		return nil, fmt.Errorf("reference: the browser decoder: %w", err)
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // no name, no time: the same bytes every time
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dataScript writes a script that hands gzipped data to the page: kafkagrid.data(kind, name,
// base64), the base64 encoded as it is written.
func dataScript(kind, name string, gz io.Reader) func(io.Writer) error {
	return func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, "kafkagrid.data(%q,%q,\"", kind, name)
		enc := base64.NewEncoder(base64.StdEncoding, bw)
		if _, err := io.Copy(enc, gz); err != nil {
			return fmt.Errorf("reference: the browser decoder: %w", err)
		}
		enc.Close()
		bw.WriteString("\");\n")
		return bw.Flush()
	}
}

// WriteDecoder writes the browser decoder of the releases cats (oldest first) alone into the
// folder out: decode.html and decode/, with the protections of a build's output folder (its
// manifest; every file checked before the first is written; no file replaced that no
// kafkagrid build wrote, unless force). assets holds DecoderWASM and DecoderGlue. Build and
// BuildSite write the same page into a site when given Options.Decoder.
//
// The manifest records the release as Build does (the release's name, when cats is one
// release; none for several, which are no one release's reference), and keeps the release
// and APIs of a reference already built in out, so that a later partial build (-apis) there
// still sees it.
func WriteDecoder(ctx context.Context, out string, cats []*kafka.Catalog, assets fs.FS, force bool) error {
	if assets == nil {
		return fmt.Errorf("reference: the browser decoder: no WebAssembly")
	}
	var rels []string
	for _, c := range cats {
		rels = append(rels, c.Release.Name())
	}
	// As a build does (newBuilder): the plan checked against the manifest before anything in
	// the folder is touched.
	prev, err := outdir.ReadManifest(out)
	if err != nil {
		return err
	}
	if err := prev.CheckKind(out, ""); err != nil {
		return err
	}
	if err := outdir.CheckPlan(out, force, prev, decoderFiles(rels)); err != nil {
		return err
	}
	f, err := outdir.Open(ctx, out, outdir.Options{Force: force})
	if err != nil {
		return err
	}
	defer f.Close()
	prev = f.Prev()
	fo := outdir.FinishOptions{Release: prev.Release, APIs: prev.APIs}
	if fo.Release == "" && len(rels) == 1 {
		fo.Release = rels[0]
	}
	err = writeDecoder(f, assets, cats, "", "")
	if merr := f.Finish(fo); err == nil {
		err = merr
	}
	return err
}

// decodeHref is the link from a page to the browser decoder (the template function
// "decoder", given the path from the page to the release's folder), or "" when the build has
// none: the release's own decode.html, or in a site of releases the site's, with the page's
// release picked.
func (b *builder) decodeHref(root string) string {
	switch {
	case b.opts.Decoder == nil:
		return ""
	case b.opts.site != nil:
		return root + "../" + DecoderPage + "#release=" + b.release
	}
	return root + DecoderPage
}

func decodeTemplate() (*template.Template, error) {
	t, err := template.New("decode").Parse(pageCSS + decodeHTML)
	if err != nil {
		return nil, fmt.Errorf("reference: %s template: %w", DecoderPage, err)
	}
	return t, nil
}

// decodeHTML is the browser decoder's page. Its controls say in words what the bytes are;
// the command line that does the same decode is one click away ("As a command").
const decodeHTML = `{{define "decode"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="{{.Generator}}">
<title>{{.Title}}</title>
{{template "css"}}
<style>
.kg-dec .ctl{display:flex;flex-wrap:wrap;gap:.6rem 1.2rem;align-items:center;margin:.75rem 0}
.kg-dec .ctl label,.kg-dec fieldset{max-width:100%}
.kg-dec fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.2rem .9rem;align-items:center}
.kg-dec legend{float:left;padding:0;margin-right:.4rem}
.kg-dec select,.kg-dec input,.kg-dec textarea,.kg-dec button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--rule);border-radius:4px;padding:.2rem .4rem;max-width:100%}
.kg-dec input[type=radio]{vertical-align:middle;margin:0 .25rem 0 0}
.kg-dec input.num{width:5.5em}
.kg-dec input.api{width:13em}
.kg-dec textarea{display:block;width:100%;min-height:9rem;font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px;resize:vertical}
.kg-dec .drop{border:2px dashed var(--rule);border-radius:6px;padding:.6rem .8rem;margin:.5rem 0;color:var(--muted)}
.kg-dec .drop.over{border-color:var(--link);background:var(--panel)}
.kg-dec .go{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .75rem}
.kg-dec button.main{background:var(--link);border-color:var(--link);color:var(--bg);font-weight:600;padding:.3rem 1rem;cursor:pointer}
.kg-dec .status{color:var(--muted)}
.kg-dec details.more{margin:.25rem 0 .75rem}.kg-dec details.more summary{cursor:pointer;color:var(--link)}
.kg-dec pre{white-space:pre;overflow:auto;background:var(--panel);border:1px solid var(--rule);border-radius:6px;padding:.6rem .8rem;font-size:12.5px;max-height:40rem}
.kg-dec pre.cmd{max-height:none;white-space:pre-wrap;word-break:break-all;margin:.4rem 0}
.kg-dec pre.err{color:var(--fg);border-left:4px solid var(--accent);white-space:pre-wrap}
.kg-dec .summary{margin:1rem 0 .25rem;font-weight:600}
.kg-dec .summary a{font-weight:400;margin-left:.75rem}
.kg-dec .tabs{display:flex;flex-wrap:wrap;gap:.25rem;margin:.5rem 0 0;border-bottom:1px solid var(--rule)}
.kg-dec .tabs button{background:none;color:var(--link);border:1px solid transparent;border-bottom:none;border-radius:6px 6px 0 0}
.kg-dec .tabs button[aria-selected=true]{border-color:var(--rule);background:var(--panel);color:var(--fg);font-weight:600}
.kg-dec figure{margin:.75rem 0 1.25rem}.kg-dec figure h3{font-size:1rem;margin:.25rem 0}
.kg-dec figure p{margin:.1rem 0 .4rem;font-size:13px;color:var(--muted)}
.kg-dec figure .pics{overflow-x:auto;-webkit-overflow-scrolling:touch}
.kg-dec figure img{display:block;max-width:none;height:auto;margin:.25rem 0 .75rem}
.kg-dec [hidden],.kg-dec pre:empty{display:none!important}
.kg-rv{position:fixed;inset:0;display:flex;flex-direction:column;background:var(--bg);color:var(--fg)}
.kg-rv[hidden]{display:none}
.kg-rvbar{flex:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;padding:.45rem .75rem;border-bottom:1px solid var(--rule);background:var(--panel);font-size:14px}
.kg-rvbar a{font-weight:600}.kg-rvbar span{color:var(--muted);overflow-wrap:anywhere}.kg-rvbar span a{font-weight:400;text-decoration:underline}
.kg-rv iframe{flex:1 1 auto;min-height:0;width:100%;border:0;display:block}
</style>
</head>
<body>
<main class="kg-dec">
<nav class="top"><span>kafkagrid</span><span class="mid">{{if .Home}}<a href="{{.Home}}">{{.HomeName}}</a> · {{end}}Decode bytes</span><span></span></nav>
<h1>Decode Kafka bytes</h1>
<p class="lead">Paste a Kafka frame or a capture as text in any common form (plain hex, xxd, <code>hexdump -C</code>, <code>od</code>, Wireshark and tshark dumps, Netty's hex dump, log tables, byte lists of Go, Rust, C, Java, JavaScript and Python, Node Buffer JSON, base64), or drop a .bin, .pcap or .pcapng file. It is decoded in this page: nothing leaves your browser.</p>
<form id="kg-form" autocomplete="off" onsubmit="return false">
<div class="ctl">
<label>Kafka release <select id="kg-release">{{range .Releases}}<option value="{{.Name}}" data-apis="{{.APIs}}"{{if eq .Name $.Pick}} selected{{end}}>{{.Name}}</option>{{end}}</select></label>
<label>API <input id="kg-api" class="api" list="kg-apis" placeholder="found from the bytes" spellcheck="false"></label><datalist id="kg-apis"></datalist>
<label>Version <input id="kg-version" class="num" type="number" min="0" max="32767" placeholder="any"></label>
</div>
<div class="ctl">
<fieldset><legend>The bytes are</legend><label><input type="radio" name="kg-side" value="" checked>found from the bytes</label><label><input type="radio" name="kg-side" value="request">a request</label><label><input type="radio" name="kg-side" value="response">a response</label></fieldset>
<label>They start <select id="kg-shape"><option value="">as found from the bytes</option><option value="nosize">without the frame's 4-byte size</option><option value="body">at the body: no size, no header</option></select></label>
</div>
<details class="more"><summary>More: how to read the text, a capture's port</summary>
<div class="ctl">
<label>Read the text as <select id="kg-from"><option value="">whatever it looks like</option><option value="hex">hex digits</option><option value="dump">a hex dump (xxd, hexdump, Wireshark)</option><option value="list">a list of byte values</option><option value="string">an escaped string</option><option value="base64">base64</option><option value="bin">raw bytes (a file)</option></select></label>
<label>Kafka's port in a capture <input id="kg-port" class="num" value="9092" spellcheck="false"></label>
</div>
</details>
<textarea id="kg-input" wrap="off" spellcheck="false" aria-label="bytes to decode" placeholder="00 00 00 23 00 12 00 04 ..."></textarea>
<div class="drop" id="kg-drop">Drop a .bin, .pcap or .pcapng file here, or pick one: <input type="file" id="kg-file" aria-label="file to decode"> <span id="kg-filename"></span></div>
<div class="go"><button id="kg-go" class="main" type="button" disabled>Decode</button><span class="status" id="kg-status" role="status">loading the decoder…</span></div>
</form>
<pre class="err" id="kg-err" hidden></pre>
<section id="kg-out" hidden>
<p class="summary" id="kg-summary"></p>
<div class="tabs" role="tablist" aria-label="What to show of the decode"><button type="button" role="tab" id="kg-tab-draw" aria-controls="kg-panel-draw" aria-selected="true">Drawing</button><button type="button" role="tab" id="kg-tab-text" aria-controls="kg-panel-text" aria-selected="false">Text</button><button type="button" role="tab" id="kg-tab-json" aria-controls="kg-panel-json" aria-selected="false">JSON</button></div>
<div id="kg-panel-draw" role="tabpanel" aria-labelledby="kg-tab-draw"></div>
<div id="kg-panel-text" role="tabpanel" aria-labelledby="kg-tab-text" hidden><pre id="kg-text" tabindex="0"></pre></div>
<div id="kg-panel-json" role="tabpanel" aria-labelledby="kg-tab-json" hidden><pre id="kg-json" tabindex="0"></pre></div>
</section>
<details class="more"><summary>As a command</summary><p>The same decode with kafkagrid on your machine (SCHEMAS: the folder of the release's schemas):</p><pre class="cmd" id="kg-cmd"></pre></details>
<noscript><p class="err">The decoder runs in the page: it needs JavaScript and WebAssembly.</p></noscript>
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{range $i, $r := .Releases}}{{if $i}}, {{end}}{{$r.Name}}{{end}}. The decoder is kafkagrid's own, compiled to WebAssembly: the drawing is its report's, Text its output, JSON its <code>-format json</code>; the report it opens is the one <code>decode -o DIR</code> writes, each page written when it is opened.</footer>
</main>
<div class="kg-rv" id="kg-reportview" hidden>
<nav class="kg-rvbar" aria-label="The report"><a href="#" id="kg-back">← Back to the decode</a><span id="kg-where"></span></nav>
<iframe id="kg-report" title="The report of the decode"></iframe>
</div>
<script src="decode/wasm_exec.js"></script>
<script src="decode/decode.js"></script>
</body>
</html>
{{end}}`
