package capture

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// streamRun is what each was given, call by call: the exchange, both frames as text, and the
// connection's notes at the time of the call; and the summary's notes.
func streamRun(t *testing.T, data []byte, o Options) (calls []string, notes []string) {
	t.Helper()
	r, err := Stream(testCatalog(t), bytes.NewReader(data), o, func(c *Conn, e *Exchange) error {
		var b strings.Builder
		b.WriteString(exchangeText(c, e))
		for _, m := range []*Message{e.Request, e.Response} {
			if m != nil && m.Frame != nil {
				if err := kafka.WriteText(&b, m.Frame.Root); err != nil {
					return err
				}
				fmt.Fprintf(&b, "bytes %x\n", m.Bytes)
			}
		}
		fmt.Fprintf(&b, "notes %q", c.Notes)
		calls = append(calls, b.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	notes = slices.Clone(r.Notes)
	for _, c := range r.Conns {
		notes = append(notes, fmt.Sprintf("conn %d: %q", c.ID, c.Notes))
	}
	return calls, notes
}

// TestStreamRecycle: with Options.Recycle, each is called with the same exchanges in the same
// order as without, each frame's tree the same while each has it (no block of a frame still
// in use, a request waiting for its response, is given to another), a connection's notes the
// same at every call, and the summary the same: on the examples over ten connections (every
// API, redactions in both directions) and on real traffic cut small, retransmitted and out of
// order, with holes.
func TestStreamRecycle(t *testing.T) {
	rec := kfakeTraffic(t)
	inputs := map[string][]byte{"examples": benchCapture(t)}
	for _, o := range []capturetest.Options{{}, {NG: true, MSS: 100, Retransmit: 3, Reorder: 5, ISN: 0xffffff00}, {MSS: 7, Retransmit: 2, Reorder: 3}, {NoSYN: true, MSS: 50}} {
		inputs[fmt.Sprintf("kfake ng=%v mss=%d reorder=%d nosyn=%v", o.NG, o.MSS, o.Reorder, o.NoSYN)] = writeCapture(t, rec, o)
	}
	holed := writeCapture(t, rec, capturetest.Options{MSS: 200})
	inputs["kfake cut short"] = holed[:len(holed)*2/3]
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			want, wantNotes := streamRun(t, data, Options{})
			for _, o := range []Options{{Recycle: true}} {
				got, gotNotes := streamRun(t, data, o)
				if len(got) != len(want) {
					t.Fatalf("%+v: %d calls, %d serial", o, len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%+v: call %d differs:\n got %.300s\nwant %.300s", o, i, got[i], want[i])
					}
				}
				if !slices.Equal(gotNotes, wantNotes) {
					t.Errorf("%+v: notes:\n got %q\nwant %q", o, gotNotes, wantNotes)
				}
			}
			if name == "examples" && !strings.Contains(strings.Join(wantNotes, "\n"), RedactedNote) {
				t.Errorf("no secrets redacted in the examples: %q", wantNotes)
			}
		})
	}
}

// TestStreamRecycleAllocates: with Options.Recycle, Stream allocates a fraction of the bytes a
// frame it allocates without (the trees' blocks are used again), on the franz-go client
// capture of BenchmarkStream (gzip batches); counted, not timed.
func TestStreamRecycleAllocates(t *testing.T) {
	if testing.Short() {
		t.Skip("records a client against kfake")
	}
	data, frames := clientCapture(t, 1)
	cat := testCatalog(t)
	perFrame := func(o Options) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Stream(cat, bytes.NewReader(data), o, func(*Conn, *Exchange) error { return nil }); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(frames)
	}
	perFrame(Options{Recycle: true}) // the pools filled once
	serial, recycled := perFrame(Options{}), perFrame(Options{Recycle: true})
	t.Logf("%d frames: %.0f bytes a frame allocated, %.0f with Recycle", frames, serial, recycled)
	if recycled > serial/4 || recycled > 6<<10 {
		t.Errorf("Recycle: %.0f bytes a frame, want at most a quarter of %.0f and 6 KiB", recycled, serial)
	}
}
