package kafka

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// writeTextPlain is WriteText written with fmt, line by line: the oracle the tuned WriteText
// is checked against.
func writeTextPlain(w io.Writer, root *Node) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%6s %4s  %-24s %s\n", "offset", "len", "type", "node")
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		name := n.Name
		if n.Kind == KindFrame {
			name = "frame"
		}
		line := strings.Repeat("  ", depth) + name
		if n.Value != "" {
			line += " = " + n.Value
		}
		fmt.Fprintf(bw, "%6d %4d  %-24s %s\n", n.Offset, n.Length, n.WireType, line)
		if c, ok := n.Raw.(*Compressed); ok && c.Root != nil {
			fmt.Fprintf(bw, "%6s %4s  %-24s %s\n", "", "", "", strings.Repeat("  ", depth+1)+"decompressed ("+c.Codec.String()+
				", offsets from the start of the decompressed data):")
			walk(c.Root, depth+2)
		}
		for _, c := range n.Children {
			if c.Kind == KindData && len(n.Children) <= 2 && c.Value == n.Value {
				fmt.Fprintf(bw, "%6d %4d  %-24s %s\n", c.Offset, c.Length, c.WireType, strings.Repeat("  ", depth+1)+"data")
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return bw.Flush()
}

// TestWriteTextPlain: WriteText writes byte for byte what the fmt version writes, for every
// example frame at every version of the newest release, plain and with compressed batches
// (their nested trees too), and for a node of wide offsets, a wire type past 24 runes and
// values that are not ASCII; and it stops at the first write error.
func TestWriteTextPlain(t *testing.T) {
	rels := testReleases(t)
	cat := testCatalog(t, rels[len(rels)-1])
	n := 0
	check := func(name string, root *Node) {
		t.Helper()
		var want, got bytes.Buffer
		if err := writeTextPlain(&want, root); err != nil {
			t.Fatal(err)
		}
		if err := WriteText(&got, root); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s: differs:\n got %.300q\nwant %.300q", name, got.Bytes(), want.Bytes())
		}
		n++
	}
	for _, c := range []Codec{CodecNone, CodecGzip, CodecZstd} {
		vs, err := cat.Vectors(VectorOptions{Versions: AllVersions(), Compression: c})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range frames(vs) {
			check(f.BaseName(), f.Root)
		}
	}
	odd := &Node{Kind: KindFrame, Offset: 1234567, Length: 123456, WireType: strings.Repeat("ü", 30), Value: "é = \"x\"\t",
		Children: []*Node{{Name: "a", Offset: -1, Length: 0, WireType: "int8", Value: "ünï"}}}
	check("odd", odd)
	// The edges of the one-block line (textWriter.node) and of its fallback to line.
	edge := &Node{Kind: KindFrame, WireType: "frame"}
	for i, c := range []struct {
		off, n int
		wt     string
	}{{999999, 9999, strings.Repeat("x", 24)}, {1000000, 10000, strings.Repeat("x", 25)}, {0, 0, "üü"}, {5, 1, ""}, {42, 7, "int32"}} {
		edge.Children = append(edge.Children, &Node{Name: fmt.Sprint("e", i), Offset: c.off, Length: c.n, WireType: c.wt, Value: "v"})
	}
	deep := edge
	for range 60 { // indents of 2 to 120 spaces: past what one block holds
		next := &Node{Name: "d", Offset: 3, Length: 2, WireType: "int16", Value: "1"}
		deep.Children = append(deep.Children, next)
		deep = next
	}
	check("edges", edge)
	t.Logf("%d trees", n)
	// A writer that fails: the error comes back, and nothing more is written after it.
	big := frames(mustVectors(t, cat))[0].Root
	fail := errors.New("disk full")
	w := &failWriter{err: fail}
	var root = &Node{Kind: KindFrame, WireType: "frame"}
	for range 2000 {
		root.Children = append(root.Children, big)
	}
	if err := WriteText(w, root); !errors.Is(err, fail) || w.calls != 1 {
		t.Errorf("err %v after %d writes, want %v after 1", err, w.calls, fail)
	}
}

func mustVectors(t *testing.T, cat *Catalog) []Vector {
	vs, err := cat.Vectors(VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

type failWriter struct {
	calls int
	err   error
}

func (w *failWriter) Write(p []byte) (int, error) {
	w.calls++
	return 0, w.err
}
