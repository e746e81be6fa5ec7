package decode

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

func catalog(tb testing.TB, rel string) *kafka.Catalog {
	tb.Helper()
	dir, err := testenv.ReleaseDir(rel)
	if err != nil {
		tb.Skip(err)
	}
	c, err := kafka.LoadCatalog(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestChains(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{"", false},
		{"\x00\x00\x00\x04abcd", true},
		{"\x00\x00\x00\x04abcd\x00\x00\x00\x05abcde", true},
		{"\x00\x00\x00\x04abc", false},                  // cut short
		{"\x00\x00\x00\x04abcde", false},                // a byte after
		{"\x00\x00\x00\x03abc", false},                  // a size below 4
		{"\xff\xff\xff\xfcabcd", false},                 // a negative size
		{"\x00\x00\x00\x04abcd\x00\x00\x00", false},     // a size cut short
		{"\x00\x00\x00\x00\x00\x00\x00\x04abcd", false}, // size 0
	} {
		if got := chains([]byte(tc.data)); got != tc.want {
			t.Errorf("chains(%q) = %v, want %v", tc.data, got, tc.want)
		}
	}
}

// TestFlagsCheck: each error of the flags is a *UsageError, in the command's words.
func TestFlagsCheck(t *testing.T) {
	for _, tc := range []struct {
		set  func(*Flags)
		want string
	}{
		{func(f *Flags) { f.Response = true }, "-response needs -api NAME"},
		{func(f *Flags) { f.Response, f.Request, f.API = true, true, "Produce" }, "give -request or -response, not both"},
		{func(f *Flags) { f.Body, f.NoSize = true, true }, "-body already means no size prefix"},
		{func(f *Flags) { f.From = "morse" }, "-from: "},
		{func(f *Flags) { f.Version = 3 }, "-version goes with -api NAME"},
		{func(f *Flags) { f.MaxFields = 0 }, "-max-fields 0: want a positive number"},
		{func(f *Flags) { f.API, f.Version = "Produce", 40000 }, "-version 40000 out of range"},
		{func(f *Flags) { f.Ports = "9092,x" }, `-port "9092,x": want port numbers`},
		{func(f *Flags) { f.Ports = "0" }, `-port "0"`},
		{func(f *Flags) {}, ""},
		{func(f *Flags) { f.From, f.Ports = "bin", " 9092 , 9093" }, ""},
	} {
		f := DefaultFlags()
		tc.set(&f)
		err := f.Check()
		var u *UsageError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", f, err)
		case tc.want != "" && (!errors.As(err, &u) || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v: %v (%T), want a usage error %q", f, err, err, tc.want)
		}
	}
}

// TestReaderUnknownAPI: an API no release has is a usage error that suggests the nearest
// name; one another release has is looked for there.
func TestReaderUnknownAPI(t *testing.T) {
	c := catalog(t, "4.0")
	f := DefaultFlags()
	f.API = "Metadta"
	_, err := NewReader(context.Background(), c, f, "-", Releases{})
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), `-api: no API "Metadta" in Kafka 4.0; did you mean Metadata?`) {
		t.Errorf("%v", err)
	}
	old := catalog(t, "3.9")
	f.API = "ControlledShutdown" // removed in 4.0
	r, err := NewReader(context.Background(), c, f, "-", Releases{Others: func() []capture.Release {
		return []capture.Release{{Name: "3.9", Catalog: old}}
	}})
	if err != nil || r.Options.API != nil {
		t.Errorf("an API of another release: %v, %v", err, r)
	}
}

// TestReadLoneFrames: a request without its size prefix, a response body alone, and bytes no
// reading fits, each read as the search says; the bytes of each reading are the input's
// (but for what kafka.MaskAuth masks, which a note says).
func TestReadLoneFrames(t *testing.T) {
	c := catalog(t, "4.0")
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var req, resp *kafka.Frame
	for _, v := range vs {
		if v.API.Name == "Metadata" {
			req, resp = v.Request, v.Response
		}
	}
	body := resp.Root.Children[len(resp.Root.Children)-1].Offset
	for _, tc := range []struct {
		name  string
		flags func(*Flags)
		data  []byte
		want  string // the frame read
		note  string // in the notes
	}{
		{"request without size", nil, req.Bytes[4:], "Metadata v13 request", "the only reading of these bytes (frame without its size prefix)"},
		{"response body, API and version given", func(f *Flags) { f.API, f.Version, f.Response, f.Body = "Metadata", 13, true, true }, resp.Bytes[body:],
			"Metadata v13 response", "read as Metadata v13 response, body only (no size, no header), as asked"},
		{"no reading", func(f *Flags) { f.API = "Produce" }, []byte("\x00\x01\x02\x03\x04\x05\x06"), "",
			"nor do the bytes read as a frame without its size prefix or as a body alone, at any version of Produce"},
	} {
		f := DefaultFlags()
		if tc.flags != nil {
			tc.flags(&f)
		}
		r, err := NewReader(context.Background(), c, f, "-", Releases{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		f.From = "bin"
		res, err := r.Read(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		notes := strings.Join(res.Notes, "\n")
		if !strings.Contains(notes, tc.note) {
			t.Errorf("%s: notes %q, want %q", tc.name, notes, tc.note)
		}
		msgs := Messages(res)
		if tc.want == "" {
			if CountOf(res).Failed != len(msgs) {
				t.Errorf("%s: %d of %d frames decoded", tc.name, len(msgs)-CountOf(res).Failed, len(msgs))
			}
			continue
		}
		if len(msgs) != 1 || msgs[0].Frame == nil || msgs[0].Err != nil ||
			!strings.HasPrefix(msgs[0].Frame.Root.Value, tc.want) || len(msgs[0].Bytes) != len(tc.data) ||
			string(msgs[0].Bytes) != string(tc.data) && !strings.Contains(notes, "masked") {
			t.Errorf("%s: %d messages, the first %q (%v), %d bytes of %d", tc.name, len(msgs), msgs[0].Frame.Root.Value, msgs[0].Err, len(msgs[0].Bytes), len(tc.data))
		}
	}
}

// FuzzRead: any bytes, read as decode reads an input it is not told about, give a Result or
// an error, never a panic, and a Result whose every message has its bytes.
func FuzzRead(f *testing.F) {
	c := catalog(f, "4.0")
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range vs[:8] {
		f.Add(v.Request.Bytes)
		f.Add(v.Response.Bytes[4:])
	}
	f.Add([]byte("00 00 00 0a 00 12 00 04 00 00 00 07 00 00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<10 {
			return // every API is tried for small inputs: bound the work of one input
		}
		fl := DefaultFlags()
		fl.MaxFields = 1 << 14
		r, err := NewReader(context.Background(), c, fl, "-", Releases{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Read(data)
		if err != nil {
			return
		}
		for _, m := range Messages(res) {
			if m.Bytes == nil && len(data) > 0 {
				t.Fatalf("a message without bytes: %+v", m)
			}
		}
	})
}
