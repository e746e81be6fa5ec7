package svgcanvas

import (
	"math"
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

// TestRoleOrder checks the order of the custom properties: known roles in style.Roles order,
// then others sorted by name, whatever the order of first use.
func TestRoleOrder(t *testing.T) {
	var buf strings.Builder
	c := New(&buf, 10, 10, Options{})
	c.Rect(0, 0, 1, 1, canvas.Style{Fill: "zeta", Stroke: style.Muted})
	c.Text(1, 1, canvas.Text{S: "x", Size: 9, Fill: "alpha"})
	c.Rect(0, 0, 1, 1, canvas.Style{Fill: style.Paper, Stroke: style.Ink})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	last := -1
	for _, name := range []string{"--kg-ink:", "--kg-muted:", "--kg-paper:", "--kg-alpha:", "--kg-zeta:"} {
		i := strings.Index(out, name)
		if i < 0 || i < last {
			t.Fatalf("%s at %d, after %d:\n%s", name, i, last, out)
		}
		last = i
	}
}
