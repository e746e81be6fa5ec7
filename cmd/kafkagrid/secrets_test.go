package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"github.com/kafkagrid/kafkagrid/diagram"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// secretInputs are inputs whose SASL secrets no output may show: frames that do not decode
// whole as what they are (a SaslAuthenticate request with one wrong last byte, whose closest
// reading is another API; an old SaslAuthenticate whose length is wrong; a SCRAM client-final
// message in a garbled frame), and the bare tokens after a v0 SaslHandshake in a capture.
func secretInputs(t *testing.T, cat *kafka.Catalog) map[string][]byte {
	enc := func(name string, resp bool, v int16, corr int32, body kafka.Values) []byte {
		api, _ := cat.Lookup(name)
		f, err := cat.Encode(kafka.Message{API: api, Response: resp, Version: v, CorrelationID: corr, ClientID: "kg", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f.Bytes
	}
	hexOf := func(b []byte) []byte { return []byte(hex.EncodeToString(b) + "\n") }
	// SaslAuthenticate v2, its last byte (the body's tagged fields) wrong.
	v2 := enc("SaslAuthenticate", false, 2, 1, kafka.Values{"AuthBytes": []byte("\x00alice\x00hunter2pw")})
	v2[len(v2)-1] = 5
	// SaslAuthenticate v1, its bytes' length one too many.
	v1 := enc("SaslAuthenticate", false, 1, 1, kafka.Values{"AuthBytes": []byte("\x00alice\x00hunter2pw")})
	binary.BigEndian.PutUint32(v1[16:], binary.BigEndian.Uint32(v1[16:])+1)
	scram := enc("SaslAuthenticate", false, 2, 1, kafka.Values{"AuthBytes": []byte("c=biws,r=abc123,p=hunter2pw")})
	scram[len(scram)-1] = 7
	chunks := []capturetest.Chunk{
		{FromClient: true, Data: enc("SaslHandshake", false, 0, 2, kafka.Values{"Mechanism": "PLAIN"})},
		{Data: enc("SaslHandshake", true, 0, 2, kafka.Values{"ErrorCode": int64(0), "Mechanisms": []any{"PLAIN"}})},
		// The token's size says one byte more than it holds: no bare token reads.
		{FromClient: true, Data: append(binary.BigEndian.AppendUint32(nil, 17), "\x00alice\x00hunter2pw"...)},
	}
	var buf bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{}); err != nil {
		t.Fatal(err)
	}
	chunks[2].Data = append(binary.BigEndian.AppendUint32(nil, 16), "\x00alice\x00hunter2pw"...)
	var whole bytes.Buffer
	if err := capturetest.Write(&whole, ends, chunks, capturetest.Options{}); err != nil {
		t.Fatal(err)
	}
	// A SCRAM client-final token with a mechanism name before it: no rule of the bare tokens
	// knows it.
	chunks[2].Data = append(binary.BigEndian.AppendUint32(nil, 31), "x,c=biws,r=abc123,p=hunter2pw\x00\x00"...)
	var scramTok bytes.Buffer
	if err := capturetest.Write(&scramTok, ends, chunks, capturetest.Options{}); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"sasl-v2-last-byte.hex":  hexOf(v2),
		"sasl-v1-length.hex":     hexOf(v1),
		"scram-garbled.hex":      hexOf(scram),
		"sasl-v0-token.pcap":     whole.Bytes(),
		"sasl-v0-token-cut.pcap": buf.Bytes(),
		"scram-v0-token.pcap":    scramTok.Bytes(),
	}
}

// leaks reports where the password stands in out: as text, as hex, as spaced hex.
func leaks(out string) bool {
	low := strings.ToLower(out)
	for _, s := range []string{"hunter2pw", "68756e74657232", "68 75 6e 74 65 72 32", "6875 6e74 6572 32"} {
		if strings.Contains(low, s) {
			return true
		}
	}
	return false
}

// TestSecretsNeverPrinted: decode's text and JSON, the report decode -o writes, the browser
// decoder and serve's drawings of a frame never show a SASL secret of secretInputs, whatever
// reading (closest, guessed, partial) they fall back on.
func TestSecretsNeverPrinted(t *testing.T) {
	root := listSchemaRoot(t)
	schemas := filepath.Join(root, "4.0")
	cat, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range secretInputs(t, cat) {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, errs, _ := runCmd(t, "decode", "-schemas", schemas, file)
			if leaks(out + errs) {
				t.Errorf("text shows the password:\n%s\n%s", out, errs)
			}
			if !strings.Contains(out+errs, "secrets redacted") {
				t.Errorf("no note says a secret was masked:\n%s\n%s", out, errs)
			}
			out, errs, _ = runCmd(t, "decode", "-format", "json", "-schemas", schemas, file)
			if leaks(out + errs) {
				t.Errorf("JSON shows the password:\n%s\n%s", out, errs)
			}
			rep := filepath.Join(dir, name+"-report")
			runCmd(t, "decode", "-q", "-o", rep, "-schemas", schemas, file)
			filepath.WalkDir(rep, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if b, _ := os.ReadFile(p); leaks(string(b)) {
						t.Errorf("the report's %s shows the password", p)
					}
				}
				return nil
			})
			// The browser decoder: what it shows at once (the text, the error, the drawing),
			// and what it makes when asked (the JSON, every file of the report).
			rels := webdecoder.Releases{Names: []string{"4.0"}, Load: func(string) (*kafka.Catalog, bool, error) { return cat, true, nil }}
			dec := webdecoder.New(rels)
			got := dec.Decode(context.Background(), webdecoder.Request{Release: "4.0", Name: name}, data)
			shown := got.Text + got.Stderr + got.Summary
			for _, f := range got.Figures {
				shown += f.Heading + f.Meta + f.Note + f.Grid + f.Tree
			}
			js, notes, _ := dec.JSON()
			shown += js + notes
			files, _, err := dec.Report()
			if err != nil {
				t.Errorf("the browser decoder's report: %v", err)
			}
			for _, rel := range files {
				b, err := dec.File(rel)
				if err != nil {
					t.Errorf("the browser decoder's %s: %v", rel, err)
				}
				shown += b
			}
			if leaks(shown) {
				t.Errorf("the browser decoder shows the password")
			}
			if len(files) == 0 || len(got.Figures) == 0 {
				t.Errorf("the browser decoder drew %d frames, wrote %d report files", len(got.Figures), len(files))
			}
		})
	}
	// serve: a drawing of a frame from its hex.
	d := diagram.NewDrawer(map[string]*kafka.Catalog{"4.0": cat}, "4.0")
	k := diagram.NewHandler(d, diagram.Limits{MaxBody: 1 << 20, MaxInflight: 2, ReadTimeout: time.Minute, WaitTimeout: time.Minute, WriteTimeout: time.Minute})
	k.ErrorLog = log.New(io.Discard, "", 0)
	srv := httptest.NewServer(k)
	defer srv.Close()
	for name, data := range secretInputs(t, cat) {
		if !strings.HasSuffix(name, ".hex") {
			continue
		}
		for _, src := range []string{"hex: " + string(data), "side: request\nhex: " + string(data), "api: SaslAuthenticate\nhex: " + string(data)} {
			for _, format := range []string{"svg", "txt"} {
				resp, err := http.Post(srv.URL+"/kafka/"+format, "text/plain", strings.NewReader(src))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if leaks(string(b)) {
					t.Errorf("serve %s of %s (%q) shows the password: %.300s", format, name, src[:10], b)
				}
			}
		}
	}
}
