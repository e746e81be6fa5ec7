package reference

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestPageNestedRecords: with compressed example batches, an API's page shows the records
// inside each batch as a message of its own after the frame's (site.Draw's nested figures):
// its caption, its live grid and tree, its hex dump and detail data, as the capture report
// does; without compression there is none.
func TestPageNestedRecords(t *testing.T) {
	cat := catalog(t, "4.0")
	for _, tc := range []struct {
		name  string
		codec kafka.Codec
		want  int
	}{{"lz4", kafka.CodecLZ4, 1}, {"none", kafka.CodecNone, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			if _, err := Build(context.Background(), cat, out, Options{Formats: HTML, APIs: []string{"Produce"}, Compression: tc.codec}); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(out, "api", "Produce.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			if n := strings.Count(page, `<section class="msg nested" id="request-n1">`); n != tc.want {
				t.Fatalf("%d nested sections of the request, want %d", n, tc.want)
			}
			if tc.want == 0 {
				return
			}
			sec := page[strings.Index(page, `id="request-n1"`):]
			sec = sec[:strings.Index(sec, "</section>")]
			for _, want := range []string{"decompressed with lz4 (offsets from the start of the decompressed data)",
				`class="live g32`, `class="live g16`, "kg-tree", `<pre class="hex h16"`, `class="kg-detail"`} {
				if !strings.Contains(sec, want) {
					t.Errorf("the nested section lacks %q", want)
				}
			}
			if strings.Contains(sec, `<ul class="files">`) {
				t.Error("the nested section links files of its own")
			}
		})
	}
}
