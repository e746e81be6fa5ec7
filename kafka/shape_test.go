package kafka

import (
	"bytes"
	"errors"
	"testing"
)

// TestDecodeShapes decodes every frame of 4.0 three ways: whole, without its size prefix and
// as its body alone; the trees agree leaf by leaf, offsets shifted by what was left out.
func TestDecodeShapes(t *testing.T) {
	c := testCatalog(t, "4.0")
	for _, f := range frames(testAllVectors(t, "4.0")) {
		body := f.Root.Children[len(f.Root.Children)-1]
		for _, tt := range []struct {
			shape Shape
			from  int // the first byte given
			want  []*Node
		}{
			{ShapeNoSize, 4, f.Root.Children[1:]},
			{ShapeBody, body.Offset, f.Root.Children[2:]},
		} {
			g, err := c.Decode(f.Bytes[tt.from:], DecodeOptions{Response: f.Response, API: f.API, Version: f.Version, Shape: tt.shape})
			if err != nil {
				t.Fatalf("%s as %v: %v", f.BaseName(), tt.shape, err)
			}
			if len(g.Root.Children) != len(tt.want) {
				t.Fatalf("%s as %v: %d children, want %d", f.BaseName(), tt.shape, len(g.Root.Children), len(tt.want))
			}
			var a, b bytes.Buffer
			for i := range tt.want {
				leaves(&a, tt.want[i], tt.from)
				leaves(&b, g.Root.Children[i], 0)
			}
			if a.String() != b.String() {
				t.Fatalf("%s as %v: leaves differ:\n%s\nwant\n%s", f.BaseName(), tt.shape, b.String(), a.String())
			}
			if g.API != f.API || g.Version != f.Version || (tt.shape == ShapeNoSize && g.CorrelationID != f.CorrelationID) {
				t.Fatalf("%s as %v: %s v%d corr %d", f.BaseName(), tt.shape, g.API.Name, g.Version, g.CorrelationID)
			}
		}
	}
	// A body needs its API, a request's too; a whole frame given as no-size is an error
	// at the byte where it goes wrong, never a panic.
	if _, err := c.Decode([]byte{0, 0}, DecodeOptions{Shape: ShapeBody}); err == nil {
		t.Error("a request body without its API decoded")
	}
	a, _ := c.Lookup("ApiVersions")
	if _, err := c.Decode([]byte{5, 'k'}, DecodeOptions{Shape: ShapeBody, API: a, Version: 3}); !errors.As(err, new(*Error)) {
		t.Errorf("a cut request body: %v", err)
	}
}

func leaves(w *bytes.Buffer, n *Node, shift int) {
	if len(n.Children) == 0 {
		w.WriteString(n.Path)
		w.WriteByte(' ')
		w.WriteString(n.Value)
		w.WriteByte(' ')
		w.WriteString(itoa(n.Offset - shift))
		w.WriteByte('\n')
	}
	for _, c := range n.Children {
		leaves(w, c, shift)
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(b []byte, i int) []byte {
	if i < 0 {
		b = append(b, '-')
		i = -i
	}
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}

// FuzzDecodeShapes decodes arbitrary bytes without their size prefix and as a body, of the
// API and version the first bytes pick, on either side: never a panic; a failure is an *Error
// with an offset inside the input, a success covers every byte.
func FuzzDecodeShapes(f *testing.F) {
	c := testCatalog(f, "4.0")
	for i, fr := range frames(testVectors(f, "4.0")) {
		if i%7 != 0 {
			continue // a sample: the fuzzer mutates them
		}
		body := fr.Root.Children[len(fr.Root.Children)-1].Offset
		f.Add(byte(i/2), int16(fr.Version), fr.Response, true, fr.Bytes[body:])
		f.Add(byte(i/2), int16(fr.Version), fr.Response, false, fr.Bytes[4:])
	}
	f.Fuzz(func(t *testing.T, sel byte, v int16, resp, body bool, data []byte) {
		a := c.APIs[int(sel)%len(c.APIs)]
		o := DecodeOptions{Response: resp, API: a, Version: v, Shape: ShapeNoSize, MaxNodes: 1 << 14}
		if body {
			o.Shape = ShapeBody
		}
		fr, err := c.Decode(data, o)
		if err != nil {
			var ke *Error
			if !errors.As(err, &ke) || ke.Offset < 0 || ke.Offset > len(data) {
				t.Fatalf("%v", err)
			}
			return
		}
		if fr.Root.Length != len(data) {
			t.Fatalf("decoded %d of %d bytes", fr.Root.Length, len(data))
		}
	})
}
