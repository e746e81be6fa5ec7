package kafka

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/snappy/xerial"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// compressedVectors encodes the 4.0 examples with every record batch compressed by c.
func compressedVectors(t *testing.T, c Codec, xerial bool) []*Frame {
	t.Helper()
	vs, err := testCatalog(t, "4.0").Vectors(VectorOptions{Compression: c, Xerial: xerial})
	if err != nil {
		t.Fatal(err)
	}
	var out []*Frame
	for _, f := range frames(vs) {
		if f.Root.Find(recordsCompressedPath(f)) != nil {
			out = append(out, f)
		}
	}
	return out
}

// recordsCompressedPath finds the path of the first compressed-records node of f, or "".
func recordsCompressedPath(f *Frame) string {
	p := ""
	f.Root.Walk(func(n *Node) bool {
		if p == "" && strings.HasSuffix(n.Path, "#compressed") {
			p = n.Path
		}
		return p == ""
	})
	return p
}

// independentInflate decompresses with code other than ours where there is some: the
// standard library's gzip, klauspost's xerial decoder (which parses the framing itself),
// pierrec's lz4 reader and klauspost's zstd.
func independentInflate(t *testing.T, c Codec, b []byte) []byte {
	t.Helper()
	out, err := inflateIndependently(c, b)
	if err != nil {
		t.Fatalf("%s: independent decompression: %v", c, err)
	}
	return out
}

// inflateIndependently is independentInflate returning its error.
func inflateIndependently(c Codec, b []byte) ([]byte, error) {
	var out []byte
	var err error
	switch c {
	case CodecGzip:
		var r *stdgzip.Reader
		if r, err = stdgzip.NewReader(bytes.NewReader(b)); err == nil {
			out, err = io.ReadAll(r)
		}
	case CodecSnappy:
		out, err = xerial.Decode(b)
	case CodecLZ4:
		out, err = io.ReadAll(lz4.NewReader(bytes.NewReader(b)))
	case CodecZstd:
		var d *zstd.Decoder
		if d, err = zstd.NewReader(nil); err == nil {
			out, err = d.DecodeAll(b, nil)
			d.Close()
		}
	default:
		err = fmt.Errorf("no codec %d", c)
	}
	return out, err
}

// TestCompressionRoundTrip encodes the examples with each codec, checks the batches with kmsg
// and independent decompressors, decodes them, and checks that the values and bytes survive.
func TestCompressionRoundTrip(t *testing.T) {
	cat := testCatalog(t, "4.0")
	for _, tc := range []struct {
		name   string
		codec  Codec
		xerial bool
	}{
		{"gzip", CodecGzip, false},
		{"snappy", CodecSnappy, false},
		{"snappy-xerial", CodecSnappy, true},
		{"lz4", CodecLZ4, false},
		{"zstd", CodecZstd, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := compressedVectors(t, tc.codec, tc.xerial)
			if len(fs) < 2 {
				t.Fatalf("%d frames with compressed batches, want the Produce request and Fetch response at least", len(fs))
			}
			for _, f := range fs {
				if err := checkTiling(f); err != nil {
					t.Fatalf("%s: %v", f.BaseName(), err)
				}
				cn := f.Root.Find(recordsCompressedPath(f))
				comp := cn.Raw.(*Compressed)
				wire := f.Bytes[cn.Offset : cn.Offset+cn.Length]
				if tc.xerial != bytes.HasPrefix(wire, xerialMagic) {
					t.Errorf("%s: xerial framing %v, want %v", f.BaseName(), !tc.xerial, tc.xerial)
				}
				plain := independentInflate(t, tc.codec, wire)
				if !bytes.Equal(plain, comp.Data) {
					t.Fatalf("%s: independent decompression differs from the encoded records", f.BaseName())
				}
				var rec kmsg.Record
				if err := rec.ReadFrom(plain); err != nil {
					t.Fatalf("%s: kmsg.Record: %v", f.BaseName(), err)
				}
				if string(rec.Value) != `{"id":1,"total":9.5}` || len(rec.Headers) != 1 {
					t.Errorf("%s: kmsg reads the record as %+v", f.BaseName(), rec)
				}
				bn := f.Root.Find(strings.TrimSuffix(cn.Path, ".Records#compressed"))
				var kb kmsg.RecordBatch
				if err := kb.ReadFrom(f.Bytes[bn.Offset : bn.Offset+bn.Length]); err != nil {
					t.Fatalf("%s: kmsg.RecordBatch: %v", f.BaseName(), err)
				}
				if Codec(kb.Attributes&7) != tc.codec || uint32(kb.CRC) != CRC32C(f.Bytes[bn.Offset+21:bn.Offset+bn.Length]) {
					t.Errorf("%s: kmsg batch attributes %d crc %x", f.BaseName(), kb.Attributes, kb.CRC)
				}

				o := DecodeOptions{}
				if f.Response {
					o = DecodeOptions{Response: true, API: f.API, Version: f.Version}
				}
				g, err := cat.Decode(f.Bytes, o)
				if err != nil {
					t.Fatalf("%s: decode: %v", f.BaseName(), err)
				}
				if !equalValue(g.Body, f.Body) {
					t.Errorf("%s: decoded values differ", f.BaseName())
				}
				again, err := cat.Encode(Message{API: g.API, Response: g.Response, Version: g.Version, CorrelationID: g.CorrelationID,
					ClientID: exampleClientID, Body: g.Body})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again.Bytes, f.Bytes) {
					t.Errorf("%s: re-encoding the decoded values gives other bytes", f.BaseName())
				}
				dn := g.Root.Find(cn.Path)
				dc := dn.Raw.(*Compressed)
				if dc.Root.Offset != 0 || dc.Root.Length != len(dc.Data) || dc.Root.Find(strings.TrimSuffix(cn.Path, "#compressed")+"[0].Value") == nil {
					t.Errorf("%s: nested tree %+v", f.BaseName(), dc.Root)
				}
				var text bytes.Buffer
				if err := WriteText(&text, g.Root); err != nil || !strings.Contains(text.String(), "decompressed ("+tc.codec.String()) {
					t.Errorf("%s: text tree lacks the decompressed records (%v)", f.BaseName(), err)
				}
				j, err := g.MarshalJSON()
				if err != nil || !bytes.Contains(j, []byte(`"nested":{"codec":"`+tc.codec.String())) {
					t.Errorf("%s: JSON lacks the nested records (%v)", f.BaseName(), err)
				}
			}
		})
	}
}

func TestXXH32(t *testing.T) {
	// Reference values of xxHash-32, seed 0 (xxhsum -H0).
	for _, tc := range []struct {
		in   string
		want uint32
	}{
		{"", 0x02cc5d05},
		{"a", 0x550d7456},
		{"abc", 0x32d153ff},
		{"Nobody inspects the spammish repetition", 0xe2293b2f},
	} {
		if got := xxh32([]byte(tc.in)); got != tc.want {
			t.Errorf("xxh32(%q) = %08x, want %08x", tc.in, got, tc.want)
		}
	}
	// And pierrec's writer agrees: the header checksum it writes is ours.
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	w.Write([]byte("records"))
	w.Close()
	fr := buf.Bytes()
	if _, note, err := lz4Header(fr); err != nil || note != "" {
		t.Fatalf("pierrec's frame: %v %q", err, note)
	}
}

// TestLZ4OldChecksum decodes an lz4 frame whose header checksum covers the magic number, as
// Kafka before 0.10 wrote it (KAFKA-3160).
func TestLZ4OldChecksum(t *testing.T) {
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	w.Write([]byte("the records of an old client"))
	w.Close()
	fr := buf.Bytes()
	end := 6
	if fr[4]&0x08 != 0 {
		end += 8
	}
	fr[end] = byte(xxh32(fr[:end]) >> 8)
	out, framing, note, err := decompress(CodecLZ4, fr, 1<<20)
	if err != nil || string(out) != "the records of an old client" || framing != "frame" || !strings.Contains(note, "KAFKA-3160") {
		t.Fatalf("got %q, %q, %q, %v", out, framing, note, err)
	}
	fr[end] ^= 0xff
	if _, _, _, err := decompress(CodecLZ4, fr, 1<<20); err == nil || !strings.Contains(err.Error(), "header checksum") {
		t.Fatalf("a wrong checksum: %v", err)
	}
}

// TestDecompressionBomb: data that inflates past the limit is refused, for every codec.
func TestDecompressionBomb(t *testing.T) {
	zeros := make([]byte, 4<<20)
	for _, tc := range []struct {
		name   string
		codec  Codec
		xerial bool
	}{
		{"gzip", CodecGzip, false}, {"snappy", CodecSnappy, false}, {"xerial", CodecSnappy, true},
		{"lz4", CodecLZ4, false}, {"zstd", CodecZstd, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			z, err := compress(nil, tc.codec, zeros, tc.xerial)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, _, err := decompress(tc.codec, z, 1<<20); !errors.Is(err, ErrDecompressedTooLarge) {
				t.Fatalf("%d bytes inflating to 4 MiB with a 1 MiB limit: %v", len(z), err)
			}
			out, _, _, err := decompress(tc.codec, z, 4<<20)
			if err != nil || len(out) != len(zeros) {
				t.Fatalf("at the limit: %d bytes, %v", len(out), err)
			}
		})
	}
	// A snappy block declaring 2 GiB is refused before anything is allocated.
	blk := binary.AppendUvarint(nil, 1<<31)
	blk = append(blk, 0)
	if _, _, _, err := decompress(CodecSnappy, blk, DefaultMaxDecompressed); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Fatalf("snappy block of 2 GiB: %v", err)
	}
}

// TestCompressedBombInFrame: a Produce request whose batch inflates past the frame's limit is
// an error naming the records' path, with the tree decoded up to it.
func TestCompressedBombInFrame(t *testing.T) {
	cat := testCatalog(t, "4.0")
	fs := compressedVectors(t, CodecZstd, false)
	f := fs[0]
	_, err := cat.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version, MaxDecompressed: 10})
	var ke *Error
	if !errors.As(err, &ke) || !errors.Is(err, ErrDecompressedTooLarge) || !strings.HasSuffix(ke.Path, "Records#compressed") {
		t.Fatalf("%v", err)
	}
}

// TestCompressedCorrupt: broken compressed data is an error at the compressed field, never a
// panic, for every codec.
func TestCompressedCorrupt(t *testing.T) {
	cat := testCatalog(t, "4.0")
	for c := CodecGzip; c <= CodecZstd; c++ {
		f := compressedVectors(t, c, false)[0]
		cn := f.Root.Find(recordsCompressedPath(f))
		for _, at := range []int{0, cn.Length / 2, cn.Length - 1} {
			b := bytes.Clone(f.Bytes)
			b[cn.Offset+at] ^= 0x5a
			// Fix the CRC so that the codec, not the checksum, meets the damage.
			bn := f.Root.Find(strings.TrimSuffix(cn.Path, ".Records#compressed"))
			binary.BigEndian.PutUint32(b[bn.Offset+17:], CRC32C(b[bn.Offset+21:bn.Offset+bn.Length]))
			g, err := cat.Decode(b, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version})
			if err == nil {
				// Some damage leaves valid data (a flipped byte of a literal): the records
				// then differ, or a checksum inside the format catches it.
				if equalValue(g.Body, f.Body) && c != CodecLZ4 {
					t.Errorf("%s: byte %d flipped, decoded the same values", c, at)
				}
				continue
			}
			var ke *Error
			if !errors.As(err, &ke) || !strings.Contains(ke.Path, "Records") {
				t.Errorf("%s: byte %d flipped: %v", c, at, err)
			}
		}
	}
}

// FuzzDecompress feeds arbitrary bytes to each codec's decompressor (the codec picked by the
// first argument): no panic, nothing past the limit.
func FuzzDecompress(f *testing.F) {
	plain := []byte(`{"id":1,"total":9.5} {"id":2,"total":9.5} {"id":3,"total":9.5}`)
	for c := CodecGzip; c <= CodecZstd; c++ {
		for _, x := range []bool{false, true} {
			z, err := compress(nil, c, plain, x)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(byte(c), z)
		}
	}
	f.Fuzz(func(t *testing.T, c byte, data []byte) {
		const limit = 1 << 16
		out, _, _, err := decompress(Codec(c%5), data, limit)
		if len(out) > limit {
			t.Fatalf("%d bytes out for a limit of %d", len(out), limit)
		}
		if err == nil && Codec(c%5) == CodecNone {
			t.Fatal("codec none decompressed")
		}
	})
}

// apiVersionsV0Response is an ApiVersions v0 response whose ApiKeys array has n elements of
// 6 bytes: a small frame of tiny repeated fields, four tree nodes for every six bytes.
func apiVersionsV0Response(n int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(4+2+4+6*n))
	b = binary.BigEndian.AppendUint32(b, 7) // correlation id
	b = binary.BigEndian.AppendUint16(b, 0) // error code
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for range n {
		b = append(b, 0, 18, 0, 0, 0, 3)
	}
	return b
}

// TestDecodeTooManyFields: a frame whose tree would outgrow DecodeOptions.MaxNodes fails with
// ErrTooManyFields where the limit was reached, its tree decoded up to there, in arrays, in
// record batches and in the records inside compressed batches; a frame within the limit
// decodes exactly as without it.
func TestDecodeTooManyFields(t *testing.T) {
	cat := testCatalog(t, "4.0")
	av, _ := cat.Lookup("ApiVersions")
	f, err := cat.Decode(apiVersionsV0Response(100_000), DecodeOptions{Response: true, API: av, Version: 0, MaxNodes: 1000})
	var ke *Error
	if !errors.Is(err, ErrTooManyFields) || !errors.As(err, &ke) || ke.Path != "ApiKeys" {
		t.Fatalf("100,000 elements, 1,000 nodes: %v", err)
	}
	if f == nil || f.Nodes < 1000 || f.Nodes > 1004 || f.Root == nil {
		t.Fatalf("tree of the failed frame: %+v", f)
	}
	if want := 14 + 6*((1000-8)/4); ke.Offset < want-12 || ke.Offset > want+12 {
		t.Errorf("failed at offset %d, want about %d", ke.Offset, want)
	}
	// Tagged fields: an ApiVersions v3 request whose header has 200,000 unknown tags.
	b := binary.BigEndian.AppendUint16(nil, 18)
	b = binary.BigEndian.AppendUint16(b, 3)
	b = binary.BigEndian.AppendUint32(b, 7)
	b = append(binary.BigEndian.AppendUint16(b, 1), 'c')
	b = binary.AppendUvarint(b, 200_000)
	for i := range 200_000 {
		b = append(binary.AppendUvarint(b, uint64(i)), 0)
	}
	b = append(b, 1, 1, 0) // the body: two empty compact strings, no tags
	b = append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
	f, err = cat.Decode(b, DecodeOptions{MaxNodes: 1000})
	if !errors.Is(err, ErrTooManyFields) || !errors.As(err, &ke) || ke.Path != "header#tags" || f.Nodes > 1004 {
		t.Fatalf("200,000 tags, 1,000 nodes: %d nodes, %v", f.Nodes, err)
	}
	// The default limit: a 16 MiB frame of 2.8 million elements stops at a million nodes.
	if testing.Short() {
		return
	}
	f, err = cat.Decode(apiVersionsV0Response(16<<20/6), DecodeOptions{Response: true, API: av, Version: 0})
	if !errors.Is(err, ErrTooManyFields) || f.Nodes > DefaultMaxNodes+4 {
		t.Fatalf("16 MiB, default limit: %d nodes, %v", f.Nodes, err)
	}

	var all []*Frame
	for _, c := range []Codec{CodecNone, CodecZstd, CodecGzip} {
		vs, err := cat.Vectors(VectorOptions{Compression: c})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, frames(vs)...)
	}
	failed := map[string]int{}
	var req *Frame // the request of the response that follows it (an Envelope's nested frame)
	for _, f := range all {
		o := DecodeOptions{Response: f.Response, API: f.API, Version: f.Version}
		if f.Response {
			o.Request = req
		} else {
			req = f
		}
		whole, err := cat.Decode(f.Bytes, o)
		if err != nil {
			t.Fatalf("%s: %v", f.BaseName(), err)
		}
		if whole.Nodes != f.Nodes {
			t.Errorf("%s: %d nodes decoded, %d encoded", f.BaseName(), whole.Nodes, f.Nodes)
		}
		o.MaxNodes = whole.Nodes
		if g, err := cat.Decode(f.Bytes, o); err != nil || g.Nodes != whole.Nodes {
			t.Errorf("%s at its own node count: %v", f.BaseName(), err)
		}
		if recordsCompressedPath(f) != "" {
			// Some limit falls among the records inside its compressed batch, in a nested
			// walk that counts toward the same limit.
			for o.MaxNodes = whole.Nodes - 1; o.MaxNodes > 0; o.MaxNodes-- {
				if _, err := cat.Decode(f.Bytes, o); errors.Is(err, ErrTooManyFields) && strings.Contains(err.Error(), "-decompressed records") {
					failed["compressed records"]++
					break
				}
			}
		}
		o.MaxNodes = whole.Nodes / 2
		g, err := cat.Decode(f.Bytes, o)
		if err == nil {
			continue // no element, record or batch starts past the middle
		}
		if !errors.Is(err, ErrTooManyFields) || !errors.As(err, &ke) {
			t.Errorf("%s at half its nodes: %v", f.BaseName(), err)
			continue
		}
		if g.Nodes < o.MaxNodes || g.Nodes > o.MaxNodes+64 {
			t.Errorf("%s: %d nodes with a limit of %d", f.BaseName(), g.Nodes, o.MaxNodes)
		}
		if strings.Contains(ke.Path, "Records") {
			failed["records"]++
		} else {
			failed["arrays"]++
		}
	}
	for _, where := range []string{"arrays", "records", "compressed records"} {
		if failed[where] == 0 {
			t.Errorf("no frame stopped in %s (%v)", where, failed)
		}
	}
	t.Logf("stopped at half their nodes: %v", failed)
}

// TestDecodeManyTags: finding each tagged field of a frame is linear in the tags and the
// struct's fields, not their product: an ApiVersions v3 request whose schema has 20,000 tagged
// fields, in a frame carrying all of them, decodes every one by name. BenchmarkDecodeManyTags
// times it (a scan of the fields per tag took some 4e8 steps).
func TestDecodeManyTags(t *testing.T) {
	const n = 20_000
	cat, b := manyTagsFrame(t, n)
	f, err := cat.Decode(b, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Body["T19999"] != int64(int8(19999&0xff)) || len(f.Body) != n+2 {
		t.Errorf("%d body values, T19999 = %v", len(f.Body), f.Body["T19999"])
	}
}

func BenchmarkDecodeManyTags(b *testing.B) {
	cat, frame := manyTagsFrame(b, 20_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cat.Decode(frame, DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// manyTagsFrame returns a catalogue whose ApiVersions request has n more tagged fields at v3,
// and a v3 request frame carrying every one of them.
func manyTagsFrame(t testing.TB, n int) (*Catalog, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(schemaDir(t, "4.0"), "ApiVersionsRequest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var extra strings.Builder
	for i := range n {
		fmt.Fprintf(&extra, ",\n    { \"name\": \"T%d\", \"type\": \"int8\", \"versions\": \"3+\", \"taggedVersions\": \"3+\", \"tag\": %d, \"about\": \"x\" }", i, i)
	}
	i := bytes.LastIndex(src, []byte("}\n  ]"))
	if i < 0 {
		t.Fatal("no end of the fields")
	}
	src = append(src[:i+1:i+1], append([]byte(extra.String()), src[i+1:]...)...)
	dir := t.TempDir()
	for _, name := range []string{"RequestHeader.json", "ResponseHeader.json", "ApiVersionsResponse.json"} {
		b, err := os.ReadFile(filepath.Join(schemaDir(t, "4.0"), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "ApiVersionsRequest.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := binary.BigEndian.AppendUint16(nil, 18)
	b = binary.BigEndian.AppendUint16(b, 3)
	b = binary.BigEndian.AppendUint32(b, 7)
	b = append(binary.BigEndian.AppendUint16(b, 1), 'c', 0) // client id "c", no header tags
	b = append(b, 1, 1)                                     // two empty compact strings
	b = binary.AppendUvarint(b, uint64(n))
	for i := range n {
		b = append(binary.AppendUvarint(b, uint64(i)), 1, byte(i))
	}
	return cat, append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}
