//go:build !js || !wasm

package site

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

func TestLookupFormat(t *testing.T) {
	tests := []struct {
		in, want string // want "" for none
	}{
		{"svg", "svg"}, {"SVG", "svg"}, {" text ", "txt"}, {"txt", "txt"}, {"rfcsvg", "rfcsvg"},
		{"notation", "notation"}, {"png", ""}, {"", ""}, {".svg", ""},
	}
	for _, tt := range tests {
		f, ok := LookupFormat(tt.in)
		if ok != (tt.want != "") || f.Name != tt.want {
			t.Errorf("LookupFormat(%q) = %q, %v; want %q", tt.in, f.Name, ok, tt.want)
		}
	}
}

func TestFormatOfFile(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"out.svg", "svg"}, {"OUT.SVG", "svg"}, {"a/b.text", "txt"}, {"x.txt", "txt"}, {"s.yml", "yaml"},
		{"s.yaml", "yaml"}, {"book.pdf", "pdf"}, {"index.html", "html"}, {"f.bin", "bin"}, {"noext", ""}, {"x.png", ""},
	}
	for _, tt := range tests {
		f, ok := FormatOfFile(tt.in)
		if ok != (tt.want != "") || f.Name != tt.want {
			t.Errorf("FormatOfFile(%q) = %q, %v; want %q", tt.in, f.Name, ok, tt.want)
		}
	}
}

func TestFormatOfType(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"image/svg+xml", "svg"}, {"Text/Plain; charset=utf-8", "txt"}, {"application/pdf", "pdf"},
		{"application/json", "json"}, {"*/*", ""}, {"", ""}, {"image/png", ""},
	}
	for _, tt := range tests {
		f, ok := FormatOfType(tt.in)
		if ok != (tt.want != "") || f.Name != tt.want {
			t.Errorf("FormatOfType(%q) = %q, %v; want %q", tt.in, f.Name, ok, tt.want)
		}
	}
}

// TestFormatsTable checks the table itself: names unique, every extension dotted, every
// media type parses, and the first format of a shared extension or media type is the one the
// lookups give.
func TestFormatsTable(t *testing.T) {
	names := map[string]bool{}
	for _, f := range Formats {
		if names[f.Name] {
			t.Errorf("%s twice", f.Name)
		}
		names[f.Name] = true
		if !strings.HasPrefix(f.Ext, ".") {
			t.Errorf("%s: extension %q", f.Name, f.Ext)
		}
		if _, ok := FormatOfType(f.ContentType); !ok {
			t.Errorf("%s: media type %q does not parse", f.Name, f.ContentType)
		}
		if g, _ := LookupFormat(f.Name); g.Name != f.Name {
			t.Errorf("%s looks up as %s", f.Name, g.Name)
		}
	}
}

// TestFormatWrite writes one small byte grid in every drawing format: each writes something of
// its kind, and twice the same bytes.
func TestFormatWrite(t *testing.T) {
	d, err := bytegrid.Layout([]bytegrid.Field{{Name: "Version", Bits: 4}, {Name: "IHL", Offset: 4, Bits: 4}, {Name: "Length", Offset: 8, Bits: 8}}, bytegrid.Options{RowBits: 16})
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]string{"svg": "<?xml", "rfcsvg": "<?xml", "pdf": "%PDF", "json": "{", "txt": " "}
	for _, f := range Formats {
		if f.Write == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := f.Write(&a, d, WriteOptions{Title: "T"}); err != nil {
				t.Fatal(err)
			}
			f.Write(&b, d, WriteOptions{Title: "T"})
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Error("two writes differ")
			}
			if want, ok := starts[f.Name]; !ok || !strings.HasPrefix(a.String(), want) {
				t.Errorf("starts %q, want %q", a.String()[:min(a.Len(), 16)], want)
			}
		})
	}
}

func ExampleFormatOfFile() {
	for _, name := range []string{"ipv4.svg", "ipv4.text", "book.pdf", "notes.md"} {
		f, ok := FormatOfFile(name)
		fmt.Println(name, f.Name, f.ContentType, ok)
	}
	// Output:
	// ipv4.svg svg image/svg+xml true
	// ipv4.text txt text/plain; charset=utf-8 true
	// book.pdf pdf application/pdf true
	// notes.md   false
}
