package svgcanvas

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// TestAppendNum compares the hand-written number formatting with strconv's shortest form of
// the rounded value.
func TestAppendNum(t *testing.T) {
	vals := []canvas.Pt{0, 0.004, 0.005, -0.004, 0.5, 1, 9.99, 9.995, 10, 12.25, 99.99, 100, 567.5, 999.999,
		1000, 1234.56, 9999.99, 9999.995, 10000, 123456.78, -0.5, -12.25, -10000.01, 1e14}
	for i := 0; i < 20000; i++ {
		vals = append(vals, canvas.Pt(i)*0.37-300)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e15 + 1, -2e15} {
		if got := string(appendNum(nil, canvas.Pt(v))); got != "0" {
			t.Errorf("appendNum(%v) = %s, want 0", v, got)
		}
	}
	// Every hundredth up to 10000, near each one, and the edge of the short path.
	for h := 0; h <= 1000000; h++ {
		vals = append(vals, canvas.Pt(float64(h)/100), canvas.Pt(float64(h)/100+0.00499), canvas.Pt(float64(h)/100+0.005))
	}
	vals = append(vals, 9998.994, 9998.995, 9998.999, 9999, 9999.004, 9999.995, 9999.999)
	vals = append(vals, 1e15, -1e15, 123456789.125)
	for _, v := range vals {
		want := strconv.FormatFloat(float64(canvas.Round(v)), 'f', -1, 64)
		if want == "-0" {
			want = "0"
		}
		if got := string(appendNum(nil, v)); got != want {
			t.Errorf("appendNum(%v) = %s, want %s", float64(v), got, want)
		}
	}
}

// FuzzAppendText checks the fast text path against cleaning then escaping the whole string.
func FuzzAppendText(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" 'x'`, "a<b>&c", "2 → 1 element", "\x00\xff\u202e", "tab\there", "ok\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := appendEsc([]byte("<"), mono.Clean(s), false)
		if got := appendText([]byte("<"), s); string(got) != string(want) {
			t.Errorf("appendText(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzAppendLines checks the title writer against cleaning and escaping each line alone.
func FuzzAppendLines(f *testing.F) {
	for _, s := range []string{"", "one", "a\nb", "\n\n", "x<y\nz&w\n", "tab\there\nnext", "bad\xff\nok", "\r\n", "é\nü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []byte
		for i, line := range strings.Split(s, "\n") {
			if i > 0 {
				want = append(want, '\n')
			}
			want = appendEsc(want, mono.Clean(line), false)
		}
		if got := appendLines(nil, s); string(got) != string(want) {
			t.Errorf("appendLines(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzTextSafeWords checks the word-at-a-time scan: every byte it passes is textSafe, it
// stops at a multiple of eight, and the word it stops at holds a byte that is not.
func FuzzTextSafeWords(f *testing.F) {
	for _, s := range []string{"", "0123456789abcdef", "value: 192.168.0.1 and more", "ok<ok", "12345678>", "&", "\x1f2345678", "1234567\x7f", "\x80abcdefgh", "\"'\"'\"'\"'=", "abc\ndefgh"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i := textSafeWords(s)
		if i%8 != 0 || i > len(s) {
			t.Fatalf("textSafeWords(%q) = %d", s, i)
		}
		for k := 0; k < i; k++ {
			if !textSafe(s[k]) {
				t.Fatalf("textSafeWords(%q) = %d passes byte %d (%#x)", s, i, k, s[k])
			}
		}
		if i+8 <= len(s) {
			stop := false
			for k := i; k < i+8; k++ {
				stop = stop || !textSafe(s[k])
			}
			if !stop {
				t.Fatalf("textSafeWords(%q) = %d stops before a safe word", s, i)
			}
		}
	})
}

// TestThemes checks where each palette's colours go: the light ones in the plain rules, the
// dark ones only in the custom properties set inside the dark media query and under a site's
// dark class, read by rules behind a selector prawn-svg skips (the auto theme); one palette
// alone, with no other rule, for light and dark.
func TestThemes(t *testing.T) {
	pal := style.Palette{"alpha": {Light: style.RGB{R: 0x11, G: 0x11, B: 0x11}, Dark: style.RGB{R: 0xee, G: 0xee, B: 0xee}}}
	draw := func(theme string) string {
		var buf strings.Builder
		c := New(&buf, 10, 10, Options{IDPrefix: "x", Palette: pal, Theme: theme})
		c.Rect(0, 0, 1, 1, canvas.Style{Fill: "alpha"})
		c.Text(1, 1, canvas.Text{S: "abc", Size: 9, Fill: "alpha"})
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, tt := range []struct {
		theme      string
		base, dark string // the colour of the plain rules; of the dark ones ("" none)
	}{
		{"", "#111111", "#eeeeee"}, {ThemeAuto, "#111111", "#eeeeee"}, {"other", "#111111", "#eeeeee"},
		{ThemeLight, "#111111", ""}, {ThemeDark, "#eeeeee", ""},
	} {
		out := draw(tt.theme)
		css := out[strings.Index(out, "<style>"):strings.Index(out, "</style>")]
		head, media, _ := strings.Cut(css, "*|*")
		if !strings.Contains(head, ".x .p0{fill:"+tt.base+";") || !strings.Contains(head, ".x .t0{font-size:9px;fill:"+tt.base+";") {
			t.Errorf("theme %q: plain rules not in %s:\n%s", tt.theme, tt.base, css)
		}
		if tt.dark == "" {
			if media != "" || strings.Count(css, "#") != 2 {
				t.Errorf("theme %q: other colours than %s:\n%s", tt.theme, tt.base, css)
			}
			continue
		}
		for _, want := range []string{
			"*|*.x .p0{fill:var(--kg-alpha,#111111);}",
			"*|*.x .t0{fill:var(--kg-alpha,#111111);}",
			"*|*.x:not(" + lightSite + "){--kg-alpha:" + tt.dark + ";}}",
			darkSite + " .x{--kg-alpha:" + tt.dark + ";}",
		} {
			if !strings.Contains(css, want) {
				t.Errorf("theme %q: no %q in\n%s", tt.theme, want, css)
			}
		}
		if strings.Contains(head, tt.dark) {
			t.Errorf("theme %q: a dark colour outside the dark rules:\n%s", tt.theme, css)
		}
	}
	if out := draw(""); !strings.Contains(out, `class="kg x"`) {
		t.Errorf("the root lacks its scope class:\n%s", out)
	}
}

// TestJSXSafe: an inline SVG has no brace nor star (MDX reads them as code and emphasis),
// and its references decode to the standalone SVG's text.
func TestJSXSafe(t *testing.T) {
	draw := func(inline bool) string {
		var buf strings.Builder
		c := New(&buf, 10, 10, Options{IDPrefix: "x", Inline: inline, Title: "a {b} *c*"})
		c.Rect(0, 0, 1, 1, canvas.Style{Fill: style.Paper})
		c.Text(1, 1, canvas.Text{S: "{x}", Size: 9})
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	in, std := draw(true), draw(false)
	if strings.ContainsAny(in, "{}*") {
		t.Errorf("inline SVG with a brace or a star:\n%s", in)
	}
	dec := strings.NewReplacer("&#123;", "{", "&#125;", "}", "&#42;", "*").Replace(in)
	if !strings.HasSuffix(std, dec) {
		t.Errorf("decoded inline SVG is not the standalone one's body:\n%s\n%s", dec, std)
	}
}

// TestWriteJSXSafe checks writeJSXSafe against the byte-by-byte rule on texts with the three
// bytes anywhere: none, each alone, runs, at either end.
func TestWriteJSXSafe(t *testing.T) {
	want := func(b []byte) string {
		var sb strings.Builder
		for _, c := range b {
			switch c {
			case '{':
				sb.WriteString("&#123;")
			case '}':
				sb.WriteString("&#125;")
			case '*':
				sb.WriteString("&#42;")
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String()
	}
	r := rand.New(rand.NewPCG(1, 2))
	texts := []string{"", "{", "}", "*", "a", "{}*", "**{{}}", ".kg x{fill:#fff}\n*|*.kg{}"}
	for range 200 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = "ab{}*"[r.IntN(5)]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		var sb strings.Builder
		e := &errWriter{w: &sb}
		e.writeJSXSafe([]byte(s))
		if sb.String() != want([]byte(s)) {
			t.Errorf("writeJSXSafe(%q) = %q, want %q", s, sb.String(), want([]byte(s)))
		}
	}
}
