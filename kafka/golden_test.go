package kafka

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenFrames keeps every 4.0 example frame, its bytes and its annotated tree, in
// testdata/frames-4.0.txt, so that a change of an example or of the layout shows in review.
// Refresh with go test ./kafka -update.
func TestGoldenFrames(t *testing.T) {
	var b bytes.Buffer
	for _, f := range frames(testVectors(t, "4.0")) {
		b.WriteString("== " + f.BaseName() + "\n")
		for off := 0; off < len(f.Bytes); off += 32 {
			b.WriteString(hex.EncodeToString(f.Bytes[off:min(off+32, len(f.Bytes))]) + "\n")
		}
		if err := WriteText(&b, f.Root); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "frames-4.0.txt")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./kafka -update)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		got := filepath.Join("testdata", "frames-4.0.got.txt") // git-ignored
		os.WriteFile(got, b.Bytes(), 0o644)
		t.Errorf("frames differ from %s: see %s (diff them; refresh with -update)", golden, got)
	}
}
