package report

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// apiVersionsV0 is an ApiVersions v0 response of n elements (4n+8 fields).
func apiVersionsV0(n int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(4+2+4+6*n))
	b = binary.BigEndian.AppendUint32(b, 7)
	b = binary.BigEndian.AppendUint16(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for range n {
		b = append(b, 0, 18, 0, 0, 0, 3)
	}
	return b
}

// TestWriteCeilings: the report's ceilings do not multiply. Forty frames of some 4,900 fields
// each (under MaxDrawnFields, 196,000 in all) draw MaxReportFields in all, the rest get a note;
// no frame's drawings fit a page, so each page draws the frame's first screen live and links
// the whole (its SVG files, else its text and JSON); every page stays under
// MaxPageElements and MaxPageBytes, and the index is a table, whatever the frames hold.
func TestWriteCeilings(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	av, _ := cat.Lookup("ApiVersions")
	var data []byte
	const frames = 40
	for range frames {
		data = append(data, apiVersionsV0(1245)...)
	}
	r, err := capture.Read(cat, data, capture.Options{API: av, HaveVersion: true})
	if err != nil {
		t.Fatal(err)
	}
	nodes := r.Conns[0].Exchanges[0].Response.Frame.Nodes
	if nodes > MaxDrawnFields || nodes < MaxDrawnFields*9/10 {
		t.Fatalf("%d nodes a frame", nodes)
	}
	out := filepath.Join(t.TempDir(), "report")
	if err := writeChecked(t, out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	html := readAll(t, out) // every page under the ceilings
	grids, _ := filepath.Glob(filepath.Join(out, "frames", "*-grid.svg"))
	if want := MaxReportFields / nodes; len(grids) != want {
		t.Errorf("%d frames drawn, want %d (MaxReportFields / %d)", len(grids), want, nodes)
	}
	if n := strings.Count(html, "the report has drawn as many as it draws in all (20000)"); n != frames-len(grids) {
		t.Errorf("%d notes of frames not drawn, want %d", n, frames-len(grids))
	}
	// Every frame's first screen is drawn live (linked to its hex dump and detail panel), and
	// says where the whole is: its drawings (with a 16-bit grid for a phone) or, past what the
	// report draws, its text and JSON.
	if n := strings.Count(html, "Drawn here live: its first "); n != frames {
		t.Errorf("%d first screens drawn live, want %d", n, frames)
	}
	if n := strings.Count(html, `g class="field kind-padding" data-path="#rest"`); n != 2*frames {
		t.Errorf("%d rest-of-the-frame fields in 32- and 16-bit grids, want %d", n, 2*frames)
	}
	narrow, _ := filepath.Glob(filepath.Join(out, "frames", "*-grid16.svg"))
	if len(narrow) != len(grids) {
		t.Errorf("%d 16-bit grids of whole frames, want %d", len(narrow), len(grids))
	}
	if n := strings.Count(html, `Drawn whole in <a href="../frames/`); n != len(grids) {
		t.Errorf("%d links to whole drawings, want %d", n, len(grids))
	}
	if n := strings.Count(html, `Every field in <a href="../frames/`); n != frames-len(grids) {
		t.Errorf("%d links to the text and JSON of frames not drawn whole, want %d", n, frames-len(grids))
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if len(index) > 64<<10 || strings.Contains(string(index), "<svg") {
		t.Errorf("index.html is %d bytes, with drawings: %v", len(index), strings.Contains(string(index), "<svg"))
	}
}

// TestWriteManyConns: a report lists at most MaxConns connections, and says how many more
// there are and how many frames they have.
func TestWriteManyConns(t *testing.T) {
	r := &capture.Result{Kind: capture.KindPcap}
	const n = MaxConns + 500
	for i := range n {
		r.Conns = append(r.Conns, &capture.Conn{ID: i + 1,
			Client: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 40000),
			Server: netip.MustParseAddrPort("10.1.0.1:9092"),
			Notes:  []string{"no SYN in the capture"}})
	}
	out := filepath.Join(t.TempDir(), "report")
	if err := writeChecked(t, out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(html), `<h2 class="conn">`); got != MaxConns {
		t.Errorf("%d connections listed, want %d", got, MaxConns)
	}
	if want := fmt.Sprintf("%d more connections (0 frames) are left out of this report: it lists %d", n-MaxConns, MaxConns); !strings.Contains(string(html), want) {
		t.Errorf("no note %q", want)
	}
}

// TestNarrowWhereItFits: on an exchange page whose response is drawn live but leaves no room
// for the narrow grids of both messages, the request still gets its narrow grid (a phone
// shows it whole) and the response scrolls its 32-bit grid in its own box.
func TestNarrowWhereItFits(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	// ApiVersions v0: the request (header v1, null client id, empty body), then a response of n
	// elements; n grows until the response's narrow grid no longer fits beside its drawings.
	req := []byte{0, 0, 0, 10, 0, 18, 0, 0, 0, 0, 0, 7, 0xff, 0xff}
	for n := 20; n <= 400; n += 20 {
		r, err := capture.Read(cat, append(append([]byte(nil), req...), apiVersionsV0(n)...), capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "report")
		if err := writeChecked(t, out, r, Options{}); err != nil {
			t.Fatal(err)
		}
		pages, _ := filepath.Glob(filepath.Join(out, "exchanges", "*.html"))
		if len(pages) != 1 {
			t.Fatalf("%d exchange pages, want 1", len(pages))
		}
		b, err := os.ReadFile(pages[0])
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !strings.Contains(page, `id="response-grid"`) {
			t.Fatalf("n=%d: the response is not drawn live before its narrow grid stopped fitting", n)
		}
		if strings.Contains(page, `id="response-grid16"`) {
			continue // both narrow grids fit: grow the response
		}
		if !strings.Contains(page, `id="request-grid16"`) {
			t.Errorf("n=%d: the response's narrow grid does not fit and the request lost its own too", n)
		}
		return
	}
	t.Fatal("the response's narrow grid always fitted: grow n further")
}

// TestNestedMax: a frame that leaves none of the report's fields draws no nested frame (a
// MaxNested of 0 would be site.DefaultMaxNested); else what is left, at most the default.
func TestNestedMax(t *testing.T) {
	for _, tc := range []struct{ left, want int }{{-5, -1}, {0, -1}, {1, 1}, {site.DefaultMaxNested + 1, site.DefaultMaxNested}} {
		if got := nestedMax(tc.left); got != tc.want {
			t.Errorf("nestedMax(%d) = %d, want %d", tc.left, got, tc.want)
		}
	}
}
