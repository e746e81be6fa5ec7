package forms_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// TestHeldOut reads the figures of testdata/heldout (published figures gathered for issue 44
// before the readers were changed, each with a NAME.expect written from the figure alone; see
// testdata/heldout/SOURCES.md) as grid does, with no -from, and counts by kind (the file
// name's prefix): refused, warned, every field's name and width right, ASCII art drawn back as
// printed, and silently wrong (read with no warning and wrong, the one failure). The last
// lines are the counts.
func TestHeldOut(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "heldout", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no figures")
	}
	kinds := map[string]*heldTally{}
	var order []string
	for _, file := range files {
		kind, _, _ := strings.Cut(filepath.Base(file), "-")
		if kinds[kind] == nil {
			kinds[kind] = &heldTally{}
			order = append(order, kind)
		}
		r := heldOutOne(t, file)
		kinds[kind].add(r)
		t.Logf("%s: %s", filepath.Base(file), r)
		if r.silentWrong() {
			t.Errorf("%s: read with no warning, and wrong", filepath.Base(file))
		}
	}
	for _, k := range order {
		n := kinds[k]
		t.Logf("%-8s %2d figures: %d refused, %d warned, right %d/%d, drawn back %d/%d (art), silently wrong %d",
			k, n.all, n.refused, n.warned, n.right, n.all, n.drawn, n.art, n.silent)
	}
}

type heldResult struct {
	form                   string
	refused, warned, right bool
	art, drawn             bool
	note                   string
}

func (r heldResult) silentWrong() bool {
	return !r.refused && !r.warned && (!r.right || r.art && !r.drawn)
}

func (r heldResult) String() string {
	return fmt.Sprintf("form %s refused %v warned %v right %v drawn %v/%v: %s", r.form, r.refused, r.warned, r.right, r.drawn, r.art, r.note)
}

type heldTally struct{ all, refused, warned, right, art, drawn, silent int }

func (n *heldTally) add(r heldResult) {
	n.all++
	for _, c := range []struct {
		b bool
		p *int
	}{{r.refused, &n.refused}, {r.warned, &n.warned}, {r.right, &n.right}, {r.art, &n.art}, {r.drawn, &n.drawn}, {r.silentWrong(), &n.silent}} {
		if c.b {
			*c.p++
		}
	}
}

func heldOutOne(t *testing.T, file string) heldResult {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := os.ReadFile(strings.TrimSuffix(file, ".txt") + ".expect")
	if err != nil {
		t.Fatal(err)
	}
	s, f, err := forms.Read(filepath.Base(file), src, forms.Options{})
	r := heldResult{form: f.Name}
	if err != nil {
		r.refused, r.note = true, err.Error()
		return r
	}
	if len(s.Warnings) > 0 {
		r.warned, r.note = true, s.Warnings[0]
	}
	want := strings.Split(strings.TrimSpace(string(exp)), "\n")
	got := heldExpect(s.Fields)
	if d := firstDiff(want, got); d != "" {
		r.note = strings.TrimPrefix(r.note+"; "+d, "; ")
	} else {
		r.right = true
	}
	if f.Name == "rfc" {
		r.art = true
		if err := rfcart.DrawnBack(s, src); err != nil {
			r.note = strings.TrimPrefix(r.note+"; "+err.Error(), "; ")
		} else {
			r.drawn = true
		}
	}
	return r
}

func heldExpect(fields []bytegrid.Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		bits := strconv.Itoa(f.Bits)
		if f.Variable || f.Repeated {
			bits = "var"
		}
		out[i] = strings.Join(strings.Fields(f.Name), " ") + "\t" + bits
	}
	return out
}

func firstDiff(want, got []string) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = strings.TrimRight(want[i], "\r")
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("field %d: want %q, got %q (%d fields, want %d)", i+1, w, g, len(got), len(want))
		}
	}
	return ""
}
