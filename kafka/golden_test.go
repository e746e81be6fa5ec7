package kafka

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

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
	testenv.Golden(t, filepath.Join("testdata", "frames-4.0.txt"), b.Bytes())
}
