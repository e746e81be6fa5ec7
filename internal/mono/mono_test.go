package mono

import (
	"fmt"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/sfnt"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"orders", "orders"},
		{"a<b&c\"d'", "a<b&c\"d'"}, // markup is the painters' to escape, not Clean's
		{"tab\there", "tab here"},
		{"line\nbreak\r", "line break "},
		{"bell\x07", "bell?"},
		{"del\x7f", "del?"},
		{"c1\u0085", "c1?"},
		{"rtl\u202eevil", "rtl?evil"},
		{"lrm\u200e", "lrm?"},
		{"zw\u200bsp\ufeff", "zw?sp?"},
		{"bad\xffutf8", "bad?utf8"},
		{"cut\xe2\x86", "cut??"},
		{"→ … ├ └ │ é", "→ … ├ └ │ é"},
		{"✓ 中", "? ?"}, // Go Mono has no glyph for these
		{"", ""},
	}
	for _, tt := range tests {
		got := Clean(tt.in)
		if got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Clean(%q) is not valid UTF-8", tt.in)
		}
		if Clean(got) != got {
			t.Errorf("Clean is not idempotent on %q", tt.in)
		}
	}
}

func TestWidthAndFit(t *testing.T) {
	tests := []struct {
		s    string
		size float64
		want float64
	}{
		{"", 12, 0},
		{"abc", 10, 18},
		{"→…", 10, 12}, // runes, not bytes
	}
	for _, tt := range tests {
		if got := Width(tt.s, tt.size); got != tt.want {
			t.Errorf("Width(%q, %g) = %g, want %g", tt.s, tt.size, got, tt.want)
		}
	}
	for _, tt := range []struct {
		w, size float64
		want    int
	}{{18, 10, 3}, {17.9, 10, 2}, {0, 10, 0}, {10, 0, 0}, {-5, 10, 0}, {60, 10, 10}} {
		if got := Fit(tt.w, tt.size); got != tt.want {
			t.Errorf("Fit(%g, %g) = %d, want %d", tt.w, tt.size, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"orders", 10, "orders"},
		{"orders", 6, "orders"},
		{"orders", 5, "orde…"},
		{"→→→→", 2, "→…"},
		{"orders", 1, "…"},
		{"orders", 0, ""},
	}
	for _, tt := range tests {
		if got := Truncate(tt.s, tt.n); got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"orders", "\xff", "\u202e", "a\tb", "中"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s)
		if !utf8.ValidString(c) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", s, c)
		}
		for _, r := range c {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("Clean(%q) = %q keeps control %U", s, c, r)
			}
		}
		if Clean(c) != c {
			t.Fatalf("Clean not idempotent on %q", s)
		}
	})
}

func ExampleWidth() {
	s := Clean("TopicData\u202e")
	fmt.Println(s, Width(s, 10))
	// Output: TopicData? 60
}

// TestCleanAttr checks the attribute cleaner beside Clean: both replace invalid UTF-8, control
// and bidirectional characters and turn tabs and newlines into spaces; CleanAttr keeps runes
// Go Mono lacks and replaces with U+FFFD.
func TestCleanAttr(t *testing.T) {
	tests := []struct{ in, clean, attr string }{
		{"plain", "plain", "plain"},
		{"a\tb\nc", "a b c", "a b c"},
		{"x\u202ey", "x?y", "x\ufffdy"},
		{"bad\xff", "bad?", "bad\ufffd"},
		{"ctl\x01", "ctl?", "ctl\ufffd"},
		{"✓ 日本", "? ??", "✓ 日本"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.clean {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.clean)
		}
		if got := CleanAttr(tt.in); got != tt.attr {
			t.Errorf("CleanAttr(%q) = %q, want %q", tt.in, got, tt.attr)
		}
	}
}

// TestGlyphRanges: the generated table (glyphs.go) says of every rune what Go Mono's cmap
// says, read by sfnt as gen_glyphs.go reads it.
func TestGlyphRanges(t *testing.T) {
	f, err := sfnt.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	for r := rune(0); r <= unicode.MaxRune; r++ {
		idx, err := f.GlyphIndex(&buf, r)
		if want := err == nil && idx != 0; hasGlyph(r) != want {
			t.Fatalf("hasGlyph(%U) = %v, the font says %v: go generate ./internal/mono", r, !want, want)
		}
	}
	for i := 1; i < len(glyphRanges); i++ {
		if glyphRanges[i][0] <= glyphRanges[i-1][1]+1 || glyphRanges[i][0] > glyphRanges[i][1] {
			t.Fatalf("glyphRanges[%d] %U-%U: not sorted, disjoint and apart from the one before", i, glyphRanges[i][0], glyphRanges[i][1])
		}
	}
}
