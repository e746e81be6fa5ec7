package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestHardFigures reads every published figure of ../shared/rfc-figures-hard (or
// $KAFKAGRID_RFC_FIGURES_HARD), and of testdata/published-figures (RFC 6733's, 7252's, 8832's,
// 1350's, 2474's, 3168's, 3550's, 9114's, 9000's, 5036's, 7348's and 8200's figures, one in a
// C comment, one in a Markdown file), as grid does with no -from flag, and compares the fields read
// with its NAME.expect ("name<TAB>bits", "var" for a variable field; names with white space
// collapsed). A figure read with no warning must have every field's name and width right: a
// reader that is wrong must say so. A figure refused, or read with warnings, is reported
// (with what the warnings say and where its fields differ), not failed: the reader said it
// could not read it as printed. An ASCII-art figure is drawn back and compared with what was
// printed by rfcart.DrawnBack, the measure the package's own tests use. The last line of the
// log counts them.
func TestHardFigures(t *testing.T) {
	dir := os.Getenv("KAFKAGRID_RFC_FIGURES_HARD")
	if dir == "" {
		root, err := testenv.ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, "..", "shared", "rfc-figures-hard")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	own, _ := filepath.Glob(filepath.Join("testdata", "published-figures", "*.txt"))
	if os.Getenv("KAFKAGRID_RFC_FIGURES_HARD") == "" {
		files = append(files, own...)
	}
	if len(files) == 0 {
		t.Skipf("no figures in %s", dir)
	}
	var right, warned, refused, silent, drawnBack int
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := readGridSpec(name, src, "", bitfield.Options{}, false)
			if err != nil {
				refused++
				t.Logf("refused: %v", err)
				return
			}
			if len(spec.Warnings) > 0 {
				warned++
				for _, w := range spec.Warnings {
					t.Logf("warning: %s", w)
				}
			} else {
				silent++
			}
			if spec.Form == "rfc" {
				if err := rfcart.DrawnBack(&spec.Spec, src); err != nil {
					t.Logf("%v", err)
				} else {
					drawnBack++
				}
			}
			want, err := readExpect(strings.TrimSuffix(file, ".txt") + ".expect")
			if os.IsNotExist(err) {
				t.Logf("no .expect: %d fields read", len(spec.Fields))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := expectOf(spec.Fields)
			if diff := expectDiff(want, got); diff != "" {
				if len(spec.Warnings) == 0 {
					t.Errorf("read with no warning, and wrong: %s", diff)
				} else {
					t.Logf("fields differ (warned): %s", diff)
				}
				return
			}
			right++
		})
	}
	t.Logf("%d figures: %d with every field's name and width right, %d read with no warning, %d with warnings, %d refused; %d of the art figures drawn back as printed",
		len(files), right, silent, warned, refused, drawnBack)
}

// readExpect reads a NAME.expect: "name<TAB>bits" lines, "#" comments.
func readExpect(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, bits, ok := strings.Cut(l, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: %q: want name<TAB>bits", file, l)
		}
		if bits != "var" {
			if _, err := strconv.Atoi(bits); err != nil {
				return nil, fmt.Errorf("%s: %q: bits %q", file, l, bits)
			}
		}
		out = append(out, strings.Join(strings.Fields(name), " ")+"\t"+bits)
	}
	return out, sc.Err()
}

// expectOf writes fields as an .expect's lines.
func expectOf(fields []bytegrid.Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		bits := strconv.Itoa(f.Bits)
		if f.Variable {
			bits = "var"
		}
		out[i] = strings.Join(strings.Fields(f.Name), " ") + "\t" + bits
	}
	return out
}

// expectDiff names the first difference of two .expect lists, "" for none.
func expectDiff(want, got []string) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = want[i]
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
