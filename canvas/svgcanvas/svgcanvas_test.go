package svgcanvas_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/style"
)

// sample paints a small drawing that uses every call of the interface.
func sample(c canvas.Canvas) {
	c.Begin(canvas.Group{ID: "f0", Class: "field kind-size", Attrs: []canvas.Attr{{Name: "data-path", Value: "Size"}, {Name: "data-offset", Value: "0"}}, Title: "Size\nint32 <framing> & \"quotes\""})
	c.Rect(0.5, 0.5, 120, 30, canvas.Style{Fill: style.FrameFill, Stroke: style.Ink})
	c.Text(60.25, 20, canvas.Text{S: "Size", Size: 12, Anchor: canvas.Middle})
	c.End()
	c.Begin(canvas.Group{Class: "field", Attrs: []canvas.Attr{{Name: "data-path", Value: "a<b>&c"}}})
	c.Rect(120.5, 0.5, 80, 30, canvas.Style{Fill: style.Group(2), Stroke: style.Ink, Width: 1.5, Dash: true, Class: "box"})
	c.Text(124, 20, canvas.Text{S: "x<y & \u202eevil\x00", Size: 9, Fill: style.Muted, Bold: true, Class: "hex"})
	c.Text(196, 20, canvas.Text{S: "end", Size: 9, Anchor: canvas.End, Fill: style.Muted})
	c.End()
	c.Line(0, 40, 200.333, 40, canvas.Style{Stroke: style.Rule})
	c.Polyline([]canvas.Pt{0, 50, 10, 55, 20, 50}, canvas.Style{Stroke: style.Accent, Width: 0.5})
}

func render(t testing.TB, opts svgcanvas.Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, 201, 60, opts)
	sample(c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		opts svgcanvas.Options
	}{
		{"standalone", svgcanvas.Options{Title: "Sample", Desc: "A small drawing", Class: "kg-test"}},
		{"inline", svgcanvas.Options{Title: "Sample", Inline: true, IDPrefix: "my id!", ExtraCSS: ".kg-test .field:hover>rect{stroke-width:2}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, tt.opts)
			if err := xml.Unmarshal(got, new(any)); err != nil {
				t.Fatalf("not XML: %v\n%s", err, got)
			}
			if again := render(t, tt.opts); !bytes.Equal(got, again) {
				t.Fatal("two renders differ")
			}
			testenv.Golden(t, filepath.Join("testdata", tt.name+".svg"), got)
		})
	}
}

func TestContract(t *testing.T) {
	got := string(render(t, svgcanvas.Options{Title: "T", Desc: "D"}))
	for _, want := range []string{
		`viewBox="0 0 201 60"`, `width="201"`, `role="img"`, `aria-labelledby="`, `<title id="`,
		`<desc id="`, `prefers-color-scheme:dark`, `stroke:#1f2328;`, `"Go Mono"`,
		`data-path="a&lt;b&gt;&amp;c"`, `x2="200.33"`, `x="60.25"`, `x&lt;y &amp; ?evil?`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, rule := range strings.Split(got[strings.Index(got, "<style>"):strings.Index(got, "</style>")], "\n") {
		if strings.Contains(rule, "var(") && !strings.HasPrefix(rule, "*|*") {
			t.Errorf("a colour is a custom property where prawn-svg (Asciidoctor PDF) reads it, and paints it black: %s", rule)
		}
	}
	if n := strings.Count(got, "<style>"); n != 1 {
		t.Errorf("%d <style> elements, want 1", n)
	}
	if strings.Contains(got, ".00") {
		t.Errorf("numbers with trailing zeros")
	}
	inline := string(render(t, svgcanvas.Options{Inline: true}))
	if strings.HasPrefix(inline, "<?xml") {
		t.Error("inline SVG has an XML prolog")
	}
	// Different titles give different default ids.
	a := svgcanvas.New(io.Discard, 1, 1, svgcanvas.Options{Title: "a"}).ID()
	b := svgcanvas.New(io.Discard, 1, 1, svgcanvas.Options{Title: "b"}).ID()
	if a == b {
		t.Errorf("default ids collide: %s", a)
	}
}

// failWriter accepts n bytes, then fails every write and counts the writes it refused.
type failWriter struct {
	n, refused int
}

var errDisk = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		f.refused++
		return 0, errDisk
	}
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errDisk
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	full := len(render(t, svgcanvas.Options{}))
	for _, n := range []int{0, 10, 200, full - 3} {
		fw := &failWriter{n: n}
		c := svgcanvas.New(fw, 201, 60, svgcanvas.Options{})
		sample(c)
		err := c.Close()
		if !errors.Is(err, errDisk) {
			t.Errorf("n=%d: Close = %v, want disk full", n, err)
		}
		if n > 0 && fw.refused != 0 {
			t.Errorf("n=%d: %d writes after the first failure", n, fw.refused)
		}
		if n == 0 && fw.refused != 1 {
			t.Errorf("n=0: %d writes refused, want 1", fw.refused)
		}
	}
	c := svgcanvas.New(io.Discard, 1, 1, svgcanvas.Options{})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err == nil {
		t.Error("second Close succeeded")
	}
}

func TestUnbalancedGroups(t *testing.T) {
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, 10, 10, svgcanvas.Options{})
	c.End()
	c.Begin(canvas.Group{Class: "a"})
	c.Begin(canvas.Group{})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(buf.Bytes(), new(any)); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.Bytes())
	}
}

func FuzzText(f *testing.F) {
	f.Add("plain", "data-path", "a<b", "t\nitle")
	f.Add("\x00\xff\u202e", "1bad name", "\"'&", "]]>")
	f.Fuzz(func(t *testing.T, s, attr, val, title string) {
		var buf bytes.Buffer
		c := svgcanvas.New(&buf, 10, 10, svgcanvas.Options{Title: title, Desc: s, ExtraCSS: val, IDPrefix: attr})
		c.Begin(canvas.Group{ID: s, Class: val, Attrs: []canvas.Attr{{Name: attr, Value: val}}, Title: title})
		c.Text(1, 2, canvas.Text{S: s, Size: 3, Class: attr})
		c.Rect(0, 0, 1, 1, canvas.Style{Fill: style.Role(val), Class: s})
		c.End()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not XML: %v\n%s", err, buf.Bytes())
			}
		}
	})
}

func BenchmarkCanvas(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c := svgcanvas.New(io.Discard, 201, 60, svgcanvas.Options{Title: "x"})
		for range 50 {
			sample(c)
		}
		c.Close()
	}
}

// TestLargeHead checks a head (here with a hundred classes) that outgrows the room New
// leaves for it: the document is still whole and well-formed.
func TestLargeHead(t *testing.T) {
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, 200, 100, svgcanvas.Options{Title: "large head", ExtraCSS: ".x{}"})
	for i := range 100 {
		c.Rect(canvas.Pt(i), 0, 1, 1, canvas.Style{Fill: style.Group(i), Stroke: style.Ink, Width: 1 + canvas.Pt(i)/4})
		c.Text(canvas.Pt(i), 10, canvas.Text{S: "t", Size: 6 + canvas.Pt(i)/2})
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	want := buf.Bytes()
	if err := xml.Unmarshal(want, new(struct{})); err != nil {
		t.Errorf("not XML: %v", err)
	}
	if !bytes.Contains(want, []byte(".p99{")) || !bytes.Contains(want, []byte(".t99{")) {
		t.Errorf("missing classes in\n%s", want)
	}
}

// TestFontFamily checks that a chosen font family cannot end the declaration or the style.
func TestFontFamily(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"IBM Plex Mono",monospace`, `font-family:"IBM Plex Mono",monospace;`},
		{`x;}</style><script>`, `font-family:xstylescript;`},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		c := svgcanvas.New(&buf, 10, 10, svgcanvas.Options{FontFamily: tt.in})
		c.Text(1, 5, canvas.Text{S: "x", Size: 9})
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tt.want) {
			t.Errorf("FontFamily %q: no %q in\n%s", tt.in, tt.want, buf.String())
		}
	}
}

// TestTextLength checks that every run of three runes or more carries its Go Mono width as
// textLength (runes × 0.6 em), so a viewer with another monospace font keeps it in its box.
func TestTextLength(t *testing.T) {
	tests := []struct {
		s    string
		size canvas.Pt
		want string // the attribute, "" for none
	}{
		{"0", 9, ""},
		{"6b", 8.5, ""},
		{"Name", 12, ` textLength="28.8"`},
		{"‹ ClientId", 11, ` textLength="66"`},
		{"AllowAutoTopicCreation", 8.5, ` textLength="112.2"`},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			var buf bytes.Buffer
			c := svgcanvas.New(&buf, 200, 20, svgcanvas.Options{})
			c.Text(1, 10, canvas.Text{S: tt.s, Size: tt.size})
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			got := ""
			if i := strings.Index(buf.String(), ` textLength="`); i >= 0 {
				got = buf.String()[i:]
				got = got[:strings.Index(got[len(` textLength="`):], `"`)+len(` textLength="`)+1]
			}
			if got != tt.want {
				t.Errorf("%q at %g: textLength %q, want %q", tt.s, tt.size, got, tt.want)
			}
		})
	}
}

// TestInvisibleRunesShown: bidirectional controls, zero-width and other format characters
// never stand raw in a drawing (they reorder or hide the text around them in a reader of the
// file): in text and titles they are cleaned (mono.Clean), in attributes written as character
// references, so that the value read back is exact.
func TestInvisibleRunesShown(t *testing.T) {
	for _, r := range []rune{0x202e, 0x202a, 0x2066, 0x2069, 0x200f, 0x061c, 0x200b, 0x200d, 0xfeff, 0x2028, 0x00ad, 0x0085} {
		label := "ab" + string(r) + "cd"
		var buf bytes.Buffer
		c := svgcanvas.New(&buf, 10, 10, svgcanvas.Options{Title: label, Desc: label})
		c.Begin(canvas.Group{Class: "field " + label, Attrs: []canvas.Attr{{Name: "data-path", Value: label}}, Title: label})
		c.Text(1, 2, canvas.Text{S: label, Size: 3})
		c.End()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsRune(buf.Bytes(), r) {
			t.Errorf("U+%04X stands raw:\n%s", r, buf.Bytes())
		}
		ref := fmt.Sprintf("&#x%x;", r)
		if !bytes.Contains(buf.Bytes(), []byte(`data-path="ab`+ref+`cd"`)) {
			t.Errorf("U+%04X: the attribute does not show it as %s:\n%s", r, ref, buf.Bytes())
		}
		var doc struct {
			G struct {
				Path string `xml:"data-path,attr"`
			} `xml:"g"`
		}
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil || doc.G.Path != label {
			t.Errorf("U+%04X: the attribute reads back %q (%v)", r, doc.G.Path, err)
		}
	}
}
