package kafka

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Codec is the compression of a record batch: bits 0-2 of its Attributes
// (https://kafka.apache.org/documentation/#recordbatch).
type Codec int8

// The codecs of Kafka's record batches.
const (
	CodecNone   Codec = 0
	CodecGzip   Codec = 1
	CodecSnappy Codec = 2
	CodecLZ4    Codec = 3
	CodecZstd   Codec = 4
)

var codecNames = [...]string{"none", "gzip", "snappy", "lz4", "zstd"}

// compressedAbouts and decompressedHeads are the texts a compressed batch's node and its
// line in WriteText say for each codec, made once rather than concatenated per batch.
// (Read-only tables, filled once.)
var compressedAbouts, decompressedHeads = func() (about, head [len(codecNames)]string) {
	for c := range codecNames {
		about[c], head[c] = compressedAboutOf(Codec(c)), decompressedHeadOf(Codec(c))
	}
	return about, head
}()

func compressedAboutOf(c Codec) string {
	return "The records, compressed with " + c.String() + "; decoded below as a nested frame whose offsets count from the start of the decompressed data."
}

func decompressedHeadOf(c Codec) string {
	return "decompressed (" + c.String() + ", offsets from the start of the decompressed data):"
}

// compressedAbout is a compressed batch's Records About.
func compressedAbout(c Codec) string {
	if c >= 0 && int(c) < len(compressedAbouts) {
		return compressedAbouts[c]
	}
	return compressedAboutOf(c)
}

// decompressedHead is WriteText's line above a compressed batch's records.
func decompressedHead(c Codec) string {
	if c >= 0 && int(c) < len(decompressedHeads) {
		return decompressedHeads[c]
	}
	return decompressedHeadOf(c)
}

// String returns the codec's name as Kafka's compression.type spells it.
func (c Codec) String() string {
	if c >= 0 && int(c) < len(codecNames) {
		return codecNames[c]
	}
	return "codec(" + strconv.Itoa(int(c)) + ")"
}

// ParseCodec reads a codec name: none, gzip, snappy, lz4 or zstd.
func ParseCodec(s string) (Codec, error) {
	for i, n := range codecNames {
		if n == s {
			return Codec(i), nil
		}
	}
	return 0, fmt.Errorf("kafka: unknown compression %q (want none, gzip, snappy, lz4 or zstd)", s)
}

// DefaultMaxDecompressed is the most bytes the compressed record batches of one frame may
// inflate to, together, when DecodeOptions.MaxDecompressed is 0: 64 MiB. A batch that would
// inflate to more (a decompression bomb) is an error at its records. Reading stops at the
// limit; the growing buffer and the codec's own state cost about 2.2 times the limit at most,
// transiently (measured: 142 to 147 MiB for data inflating to 80 MiB, with every codec).
const DefaultMaxDecompressed = 64 << 20

// ErrDecompressedTooLarge is wrapped by the error of a compressed batch that inflates to more
// than the frame's limit (DecodeOptions.MaxDecompressed).
var ErrDecompressedTooLarge = errors.New("decompressed data exceeds the limit")

// Compressed is the Raw value of the node of a compressed batch's records (path
// "…Records[0].Records#compressed"): the codec, the decompressed bytes, and the records
// decoded from them as a nested tree (Root) whose offsets count from the start of the
// decompressed data, not of the frame.
type Compressed struct {
	Codec Codec
	// Framing says how the compressed bytes are framed when it matters: "xerial" for snappy
	// in the xerial framing Java clients write, "raw" for plain snappy blocks, "frame" for
	// lz4 frames; Note adds what was tolerated (the old lz4 header checksum).
	Framing string
	Note    string
	Data    []byte // the decompressed records
	Root    *Node  // KindArray "Records": the records, offsets relative to Data
}

// xerialMagic starts snappy data in the xerial framing (snappy-java's SnappyOutputStream).
var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

// compress compresses src with c, appending to dst. Snappy is written as one raw block, or in
// the xerial framing when xerial is set; lz4 as a standard frame.
func compress(dst []byte, c Codec, src []byte, xerial bool) ([]byte, error) {
	switch c {
	case CodecGzip:
		buf := bytes.NewBuffer(dst)
		zw := gzip.NewWriter(buf)
		if _, err := zw.Write(src); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case CodecSnappy:
		if !xerial {
			return append(dst, snappy.Encode(nil, src)...), nil
		}
		dst = append(dst, xerialMagic...)
		dst = binary.BigEndian.AppendUint32(dst, 1) // version
		dst = binary.BigEndian.AppendUint32(dst, 1) // minimum compatible version
		for len(src) > 0 {
			n := min(len(src), 32<<10) // snappy-java's default block size
			blk := snappy.Encode(nil, src[:n])
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(blk)))
			dst = append(dst, blk...)
			src = src[n:]
		}
		return dst, nil
	case CodecLZ4:
		buf := bytes.NewBuffer(dst)
		zw := lz4.NewWriter(buf)
		if _, err := zw.Write(src); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case CodecZstd:
		zw, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		defer zw.Close()
		return zw.EncodeAll(src, dst), nil
	}
	return nil, fmt.Errorf("cannot compress with %s", c)
}

// decompress inflates src (compressed with c) to at most limit bytes. It returns the data and
// what it found: the framing and a note on anything tolerated.
func decompress(c Codec, src []byte, limit int) (out []byte, framing, note string, err error) {
	out, framing, note, _, err = inflate(c, src, limit)
	return out, framing, note, err
}

// inflate is decompress, and says how many bytes the work produced, also when it failed (a
// bomb past the limit produced limit+1): what a budget of inflation is charged, so that a
// bomb that fails costs its limit as one that succeeds does.
func inflate(c Codec, src []byte, limit int) (out []byte, framing, note string, spent int, err error) {
	out, framing, note, err = inflateWork(c, src, limit, &spent)
	spent = max(spent, len(out))
	if err != nil {
		out = nil
	}
	return out, framing, note, spent, err
}

// inflateWork is inflate's work: out holds what was produced, also on error; spent counts
// what was produced and dropped (a snappy block decoded, then found bad).
func inflateWork(c Codec, src []byte, limit int, spent *int) (out []byte, framing, note string, err error) {
	switch c {
	case CodecGzip:
		out, err = gunzip(src, limit)
		return out, "", "", err
	case CodecSnappy:
		if bytes.HasPrefix(src, xerialMagic) {
			out, err = unxerial(src, limit, spent)
			return out, "xerial", "", err
		}
		out, err = unsnappy(nil, src, limit, spent)
		return out, "raw", "", err
	case CodecLZ4:
		src, note, err = lz4Header(src)
		if err != nil {
			return nil, "frame", "", err
		}
		out, err = readLimited(lz4.NewReader(bytes.NewReader(src)), limit, 4*len(src))
		return out, "frame", note, err
	case CodecZstd:
		zr, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(uint64(max(limit, 1))),
			zstd.WithDecoderMaxWindow(uint64(max(limit, 1<<10))))
		if err != nil {
			return nil, "", "", err
		}
		defer zr.Close()
		out, err = readLimited(zr, limit, 4*len(src))
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
			err = fmt.Errorf("%w (%d bytes): %v", ErrDecompressedTooLarge, limit, err)
		}
		return out, "", "", err
	}
	return nil, "", "", fmt.Errorf("unknown compression codec %d", c)
}

// gunzip inflates the gzip data src to at most limit bytes. A gzip reader holds a 32 KiB
// window and Huffman tables (some 70 KB): one is reused across batches (a capture's Fetch
// responses carry thousands), reset for each, with the bytes.Reader it reads through. The
// records go into one buffer of the size the trailer declares (gzipSize).
func gunzip(src []byte, limit int) ([]byte, error) {
	g, _ := gzipReaders.Get().(*gzipReader)
	if g == nil {
		g = new(gzipReader)
	}
	defer func() {
		g.src.Reset(nil) // hold no batch while pooled
		gzipReaders.Put(g)
	}()
	g.src.Reset(src)
	if err := g.zr.Reset(&g.src); err != nil {
		return nil, err
	}
	return readLimited(&g.zr, limit, gzipSize(src, limit))
}

// gzipReader is a gzip reader and the reader of the batch it inflates.
type gzipReader struct {
	zr  gzip.Reader
	src bytes.Reader
}

// gzipReaders are the gzip readers gunzip reuses.
var gzipReaders sync.Pool

// gzipSize is the first size of the buffer gunzip fills: the size the gzip trailer declares
// (ISIZE, the last 4 bytes: the length mod 2^32 of the last member), and a byte for the read
// that finds the end. A trailer is not trusted beyond a guess: the size is capped at what
// deflate can make of src (at most 1032 bytes a byte) and at limit+1, so that a lying one
// costs no more than the input bounds; readLimited grows the buffer when the data is longer
// (members concatenated). Too short to hold a trailer, src gets 4 times its size.
func gzipSize(src []byte, limit int) int {
	if len(src) < 18 { // a header of 10 bytes and a trailer of 8
		return 4 * len(src)
	}
	n := int(binary.LittleEndian.Uint32(src[len(src)-4:]))
	return min(n, 1032*len(src), limit) + 1
}

// readLimited reads r to its end, failing once it passes limit bytes. The buffer starts at
// hint bytes and doubles, capped at limit+1: a bomb costs at most about twice the limit,
// transiently, and nothing past it is read. On an error it returns what was read before it.
func readLimited(r io.Reader, limit, hint int) ([]byte, error) {
	buf := make([]byte, 0, min(max(hint, 512), limit+1))
	for {
		if len(buf) == cap(buf) {
			if len(buf) > limit {
				return buf, fmt.Errorf("%w (%d bytes)", ErrDecompressedTooLarge, limit)
			}
			nb := make([]byte, len(buf), min(2*cap(buf), limit+1))
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return buf, err
		}
	}
	if len(buf) > limit {
		return buf, fmt.Errorf("%w (%d bytes)", ErrDecompressedTooLarge, limit)
	}
	return buf, nil
}

// unsnappy appends the decoded raw snappy block src to dst, refusing a block whose declared
// length passes limit before allocating it.
func unsnappy(dst, src []byte, limit int, spent *int) ([]byte, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("%w (%d bytes): the block declares %d", ErrDecompressedTooLarge, limit, n)
	}
	out, err := snappy.Decode(nil, src)
	if err != nil {
		*spent += n // allocated and filled before the error
		return nil, err
	}
	return append(dst, out...), nil
}

// unxerial decodes snappy data in the xerial framing: the 8-byte magic, a version and a
// minimum compatible version (int32 each), then blocks, each an int32 length and a raw snappy
// block.
func unxerial(src []byte, limit int, spent *int) ([]byte, error) {
	if len(src) < 16 {
		return nil, fmt.Errorf("xerial header: %d bytes, want 16", len(src))
	}
	var out []byte
	for off := 16; off < len(src); {
		if len(src)-off < 4 {
			return nil, fmt.Errorf("xerial block at %d: %d bytes left for its length", off, len(src)-off)
		}
		n := int(binary.BigEndian.Uint32(src[off:]))
		off += 4
		if n < 0 || n > len(src)-off {
			return nil, fmt.Errorf("xerial block at %d: length %d exceeds the %d bytes left", off-4, n, len(src)-off)
		}
		var err error
		done := len(out)
		if out, err = unsnappy(out, src[off:off+n], limit-len(out), spent); err != nil {
			*spent += done // the blocks before it
			if errors.Is(err, ErrDecompressedTooLarge) {
				// The limit is the frame's, not what the blocks before left of it.
				return nil, fmt.Errorf("xerial block at %d: %w (%d bytes): the blocks before it inflate to %d", off-4, ErrDecompressedTooLarge, limit, done)
			}
			return nil, fmt.Errorf("xerial block at %d: %w", off-4, err)
		}
		off += n
	}
	return out, nil
}

// lz4Magic starts an lz4 frame (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md).
const lz4Magic = 0x184D2204

// lz4Header checks an lz4 frame's header checksum (HC: the second byte of xxHash-32 of the
// frame descriptor). Kafka before 0.10 computed it over the magic number too (KAFKA-3160), and
// its clients wrote such frames: that checksum is accepted, said in the note, and corrected
// in a copy for the decoder.
func lz4Header(src []byte) ([]byte, string, error) {
	if len(src) < 7 || binary.LittleEndian.Uint32(src) != lz4Magic {
		return nil, "", errors.New("not an lz4 frame (magic 0x184D2204)")
	}
	flg := src[4]
	end := 6 // FLG and BD
	if flg&0x08 != 0 {
		end += 8 // content size
	}
	if flg&0x01 != 0 {
		end += 4 // dictionary id
	}
	if len(src) <= end {
		return nil, "", fmt.Errorf("lz4 frame header: %d bytes, want %d", len(src), end+1)
	}
	hc := src[end]
	good := byte(xxh32(src[4:end]) >> 8)
	if hc == good {
		return src, "", nil
	}
	if hc == byte(xxh32(src[:end])>>8) {
		fixed := bytes.Clone(src)
		fixed[end] = good
		return fixed, "the lz4 header checksum covers the magic number, as Kafka before 0.10 wrote it (KAFKA-3160): accepted", nil
	}
	return nil, "", fmt.Errorf("lz4 frame header checksum 0x%02x, want 0x%02x", hc, good)
}

// xxh32 is xxHash-32 with seed 0 (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md).
func xxh32(b []byte) uint32 {
	const (
		p1 uint32 = 2654435761
		p2 uint32 = 2246822519
		p3 uint32 = 3266489917
		p4 uint32 = 668265263
		p5 uint32 = 374761393
	)
	round := func(acc, in uint32) uint32 { return bits.RotateLeft32(acc+in*p2, 13) * p1 }
	n := uint32(len(b))
	var h uint32
	if len(b) >= 16 {
		var seed uint32 // 0: the constant sums below would overflow at compile time
		v1, v2, v3, v4 := seed+p1+p2, seed+p2, seed, seed-p1
		for ; len(b) >= 16; b = b[16:] {
			v1 = round(v1, binary.LittleEndian.Uint32(b))
			v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = p5
	}
	h += n
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*p3, 17) * p4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*p5, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}

// compressedRecords walks the records of a compressed batch (after its uncompressed header):
// the int32 record count, then the compressed bytes to the batch's end as one field, whose Raw
// is a *Compressed holding the records decoded from the decompressed bytes as a nested tree.
func (k *walker) compressedRecords(arr *Node, rp string, b *RecordBatch, codec Codec) error {
	k.children(arr, 2)
	cpath := k.t.cat(rp, "#compressed")
	off := k.pos()
	count := len(b.Records)
	u, err := k.fixed(4, uint64(uint32(int32(count))))
	if err != nil {
		return k.failErr(k.t.cat(rp, sfxLength), off, err)
	}
	count = int(int32(u))
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "count"
	leaf.Path = k.t.cat(rp, sfxLength)
	leaf.Offset = off
	leaf.Length = 4
	leaf.WireType = "int32"
	leaf.Raw = int64(count)
	leaf.Value = strconv.Itoa(count)
	leaf.About = "Record count (int32), outside the compressed data."
	arr.Children = append(arr.Children, leaf)
	if count < 0 {
		return k.fail(leaf.Path, off, "invalid record count %d", count)
	}
	cn := k.alloc()
	cn.Kind = KindField
	cn.Name = "Records"
	cn.Path = cpath
	cn.Offset = k.pos()
	cn.WireType = codec.String()
	cn.About = compressedAbout(codec)
	comp := &Compressed{Codec: codec}
	root := k.alloc()
	root.Kind = KindArray
	root.Name = "Records"
	root.Path = rp
	root.WireType = "array"
	root.About = "The records of the batch, decompressed (offsets from the start of the decompressed data)."
	comp.Root = root
	// The records are walked by k itself over the plain records (k.nested swaps its writer
	// or reader), into the same blocks of nodes and text.
	if k.w != nil {
		plain := &writer{}
		if err := k.nested(plain, nil, false, func() error { return k.recordList(root, rp, b, count) }); err != nil {
			return err
		}
		comp.Data = plain.buf
		comp.Framing = framingOf(codec, b.Xerial)
		z, err := k.compress(nil, codec, comp.Data, b.Xerial)
		if err != nil {
			return k.fail(cpath, cn.Offset, "%s: %w", codec, err)
		}
		k.w.buf = append(k.w.buf, z...)
	} else {
		data, err := k.raw(k.left(), nil)
		if err != nil {
			return k.failErr(cpath, cn.Offset, err)
		}
		out, framing, note, spent, err := inflate(codec, data, k.inflate)
		k.inflate -= min(spent, k.inflate) - len(out) // a failed inflation costs what it produced
		cn.Length = len(data)
		cn.Raw = comp
		arr.Children = append(arr.Children, cn)
		comp.Framing, comp.Note = framing, note
		if err != nil {
			cn.Value = k.t.cat(codec.String(), ", "+strconv.Itoa(len(data))+" bytes: cannot decompress")
			return k.fail(cpath, cn.Offset, "%s: %w", codec, err)
		}
		k.inflate -= len(out)
		b.Xerial = framing == "xerial"
		comp.Data = out
		// Each record takes at least 7 bytes: a count beyond that cannot be right, and must
		// not size an allocation.
		if count > len(out)/7 {
			return k.fail(leaf.Path, off, "record count %d, but the %d decompressed bytes hold at most %d", count, len(out), len(out)/7)
		}
		plain := &reader{buf: out, end: len(out)}
		err = k.nested(nil, plain, false, func() error {
			if err := k.recordList(root, rp, b, count); err != nil {
				return err
			}
			if plain.off != len(out) {
				return k.fail(rp, plain.off, "%d decompressed bytes after the last record", len(out)-plain.off)
			}
			return nil
		})
		cn.Value = k.t.cat(codec.String(), ", "+strconv.Itoa(len(data))+" → "+strconv.Itoa(len(out))+" bytes")
		if err != nil {
			var pe *pathError
			if errors.As(err, &pe) {
				// The offset is in the decompressed data: say so, and where the data is.
				return k.fail(pe.path, cn.Offset, "in the %s-decompressed records at their offset %d: %w", codec, pe.off, pe.err)
			}
			return k.fail(cpath, cn.Offset, "%w", err)
		}
		return nil
	}
	cn.Length = k.pos() - cn.Offset
	cn.Raw = comp
	cn.Value = k.t.cat(codec.String(), ", "+strconv.Itoa(cn.Length)+" → "+strconv.Itoa(len(comp.Data))+" bytes")
	arr.Children = append(arr.Children, cn)
	return nil
}

func framingOf(c Codec, xerial bool) string {
	switch c {
	case CodecSnappy:
		if xerial {
			return "xerial"
		}
		return "raw"
	case CodecLZ4:
		return "frame"
	}
	return ""
}

// recordList walks count records into root (the records of a batch, compressed or not).
func (k *walker) recordList(root *Node, rp string, b *RecordBatch, count int) error {
	k.children(root, count)
	if k.w == nil {
		b.Records = make([]Record, count)
	}
	for i := range count {
		if err := k.spent(rp, k.pos()); err != nil {
			k.end(root)
			return err
		}
		path := k.t.index(rp, i, "")
		if err := k.record(root, path, path[len(rp):], &b.Records[i]); err != nil {
			k.end(root)
			return err
		}
	}
	if count == 1 {
		root.Value = "1 record"
	} else {
		root.Value = k.t.intSuffix(int64(count), " records")
	}
	k.end(root)
	return nil
}
