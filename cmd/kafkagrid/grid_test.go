package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

func gridSpec(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join("..", "..", "examples", "protocols", name)
}

func runGridCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"grid"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestGridText(t *testing.T) {
	for _, args := range [][]string{
		{gridSpec(t, "ipv4.yaml")},
		{gridSpec(t, "ipv4.yaml"), "-o", "-"},
		{"-o", "-", gridSpec(t, "ipv4.yaml")},
	} {
		out, _, err := runGridCmd(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !strings.Contains(out, "|Version|  IHL  |Type of Service|") {
			t.Errorf("%v: no RFC 791 row in\n%s", args, out)
		}
	}
}

func TestGridFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"ipv4", "tcp", "udp", "dns"} {
		svg := filepath.Join(dir, p+".svg")
		if _, _, err := runGridCmd(t, gridSpec(t, p+".yaml"), "-o", svg); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		if err := svgcheck.Check(b); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		// Byte-identical across runs.
		again := filepath.Join(dir, p+"2.svg")
		runGridCmd(t, gridSpec(t, p+".yaml"), "-o", again)
		if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
			t.Errorf("%s: two runs differ", p)
		}
	}
	for _, f := range []string{"x.pdf", "x.txt", "x.json"} {
		out := filepath.Join(dir, f)
		if _, _, err := runGridCmd(t, gridSpec(t, "ipv4.yaml"), "-o", out, "-rowbits", "64", "-decimal", "-nohex"); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if st, err := os.Stat(out); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if out, _, err := runGridCmd(t, gridSpec(t, "ipv4.yaml"), "-format", "svg"); err != nil || !strings.HasPrefix(out, "<?xml") {
		t.Errorf("-format svg to stdout: %v %.40q", err, out)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestGridErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, offset: 4}\n"), 0o644)
	out := filepath.Join(dir, "out.svg")
	huge := filepath.Join(dir, "huge.yaml") // sparse: 4 GiB that take no disk
	if f, err := os.Create(huge); err != nil || f.Truncate(4<<30) != nil || f.Close() != nil {
		t.Fatal("cannot make a sparse file")
	}
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{huge}, false, "huge.yaml: 4294967296 bytes, more than a spec may have (67108864)"},
		{nil, true, "exactly one"},
		{[]string{"a.yaml", "b.yaml"}, true, "exactly one"},
		{[]string{gridSpec(t, "ipv4.yaml"), "-o", "x.png"}, true, "suffix"},
		{[]string{gridSpec(t, "ipv4.yaml"), "-format", "gif"}, true, "unknown format"},
		{[]string{"-nosuchflag", gridSpec(t, "ipv4.yaml")}, true, "nosuchflag"},
		{[]string{filepath.Join(dir, "missing.yaml")}, false, "no such file"},
		{[]string{bad, "-o", out}, false, `bad.yaml:4: field "b": offset 4 overlaps`},
		{[]string{gridSpec(t, "ipv4.yaml"), "-o", filepath.Join(dir, "x.svg"), "-format", "txt"}, true, "-format txt, but -o"},
		{[]string{gridSpec(t, "ipv4.yaml"), "-o", filepath.Join(bad, "x.svg")}, false, "not a directory"},
	}
	for _, tt := range tests {
		_, _, err := runGridCmd(t, tt.args...)
		if err == nil {
			t.Errorf("%v: no error", tt.args)
			continue
		}
		var u usageError
		if errors.As(err, &u) != tt.usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v (usage %v), want %q (usage %v)", tt.args, err, errors.As(err, &u), tt.want, tt.usage)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s", out)
	}
}

// TestGridUsage checks that -h names the flags' arguments rather than their Go types.
func TestGridUsage(t *testing.T) {
	stderr, _, _ := runGridCmd(t, "-h") // help asked for goes to stdout
	for _, want := range []string{"-o FILE", "-format FORMAT", "-rowbits BITS"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("usage lacks %q:\n%s", want, stderr)
		}
	}
	for _, bad := range []string{" string\n", " int\n"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("usage shows a Go type placeholder %q:\n%s", bad, stderr)
		}
	}
}

// TestGridCreatesFolders: -o into folders that do not exist yet creates them, as build -out does.
func TestGridCreatesFolders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nodir", "sub", "x.svg")
	if _, _, err := runGridCmd(t, gridSpec(t, "ipv4.yaml"), "-o", out); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("%s: %v", out, err)
	}
}
