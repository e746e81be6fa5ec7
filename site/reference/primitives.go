package reference

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// primitive is one of Kafka's primitive types as the book's "Primitive types" chapter and
// primitives.html explain it: what it is, a few facts as a table, and a byte grid of an
// example value. The grids of the integer and string forms are drawn from bytes encoded here
// with encoding/binary (Kafka's varints are protobuf's, its zigzag encoding Go's); the record
// batch is the Produce example's own, cut from its annotated frame.
type primitive struct {
	ID, Title string
	About     string
	Rows      [][2]string // a small table: value and encoding, or form and bytes
	Heads     [2]string   // the table's column heads
	Caption   string
	Grid      site.Figure
	fields    []bytegrid.Field // the grid's fields (the tests read their bytes)
}

// primitivesTitle is the chapter's and the page's title.
const primitivesTitle = "Primitive types"

// The varints' grids are 16 bits a row at twice the usual bit width: each byte as wide as in
// the frames' grids, and room in a one-bit box for its label. The others are drawn as the
// frames are, 32 bits a row (wide: 0).
const (
	primRowBits  = 16
	primBitWidth = 32
)

// uvarintFields draws b, an unsigned varint, byte by byte from bit offset off: each byte's
// continuation bit (1: another byte follows) and its seven value bits, least significant
// group first as on the wire.
func uvarintFields(off int, b []byte, group string) []bytegrid.Field {
	var fs []bytegrid.Field
	for i, c := range b {
		more := "last"
		if c&0x80 != 0 {
			more = "more"
		}
		fs = append(fs,
			bytegrid.Field{Offset: off + 8*i, Bits: 1, Name: more, Value: strconv.Itoa(int(c >> 7)), Group: group, Kind: bytegrid.Length, Bytes: []byte{c}},
			bytegrid.Field{Offset: off + 8*i + 1, Bits: 7, Name: fmt.Sprintf("bits %d–%d", 7*i, 7*i+6), Value: fmt.Sprintf("%07b = %d", c&0x7f, c&0x7f), Group: group, Kind: bytegrid.Varint, Bytes: []byte{c}})
	}
	return fs
}

// bytesField is a whole-byte field at byte offset off.
func bytesField(off int, b []byte, name, value, group string, kind bytegrid.Kind) bytegrid.Field {
	return bytegrid.Field{Offset: 8 * off, Bits: 8 * len(b), Name: name, Value: value, Group: group, Kind: kind, Bytes: b}
}

// primGrid lays out hand-made primitive fields, each group its own colour in order.
func primGrid(fs []bytegrid.Field, title string, narrow bool) (site.Figure, error) {
	var order []string
	seen := map[string]bool{}
	for _, f := range fs {
		if f.Group != "" && !seen[f.Group] {
			seen[f.Group] = true
			order = append(order, f.Group)
		}
	}
	colors := map[string]int{}
	for i, g := range order {
		colors[g] = i
	}
	o, rows := bytegrid.Options{GroupColors: colors}, "32 bits a row"
	if narrow {
		o.RowBits, o.BitWidth, rows = primRowBits, primBitWidth, "16 bits a row"
	}
	d, err := bytegrid.Layout(fs, o)
	if err != nil {
		return site.Figure{}, fmt.Errorf("reference: primitives: %s: %w", title, err)
	}
	return site.Figure{Drawing: d, Title: title + ": byte grid", Desc: "Byte grid of " + title + ", " + rows + ", each field boxed with its name and value."}, nil
}

func hexBytes(b []byte) string {
	var s []string
	for _, c := range b {
		s = append(s, fmt.Sprintf("%02x", c))
	}
	return strings.Join(s, " ")
}

// primitives returns the chapter's sections in reading order; fr is the Produce request whose
// record batch the last one draws (none without it), decode the catalog's nested decoder.
func primitives(fr *kafka.Frame, vo kafkaview.Options) ([]primitive, error) {
	var out []primitive
	add := func(p primitive, fs []bytegrid.Field) error {
		g, err := primGrid(fs, p.Title, p.ID == "uvarint" || p.ID == "varint" || p.ID == "varlong")
		if err != nil {
			return err
		}
		p.Grid, p.fields = g, fs
		out = append(out, p)
		return nil
	}

	// Unsigned varint.
	u300 := binary.AppendUvarint(nil, 300)
	var urows [][2]string
	for _, v := range []uint64{0, 1, 127, 128, 300, 16383, 16384, 1<<31 - 1} {
		urows = append(urows, [2]string{strconv.FormatUint(v, 10), hexBytes(binary.AppendUvarint(nil, v))})
	}
	if err := add(primitive{ID: "uvarint", Title: "Unsigned varint",
		About: "Protobuf's base-128 varint (uvarint in the drawings): seven bits of the value a byte, the least significant seven first; the top bit of a byte is 1 when another byte follows, 0 on the last. Values up to 127 take one byte, up to 16,383 two, an int32 at most five. Flexible versions write every length, count, tag and tag size this way.",
		Heads: [2]string{"Value", "Bytes"}, Rows: urows,
		Caption: "300 as an unsigned varint: 0101100 (44) with the top bit set, then 0000010 (2 × 128)",
	}, uvarintFields(0, u300, "uvarint 300")); err != nil {
		return nil, err
	}

	// Zigzag.
	var zrows [][2]string
	var zfs []bytegrid.Field
	for i, v := range []int64{0, -1, 1, -2, 2, -64, 63, 64} {
		z := uint64(v<<1) ^ uint64(v>>63)
		b := binary.AppendVarint(nil, v)
		zrows = append(zrows, [2]string{strconv.FormatInt(v, 10), fmt.Sprintf("zigzag %d: %s", z, hexBytes(b))})
		if len(b) == 1 {
			zfs = append(zfs, bytesField(i, b, strconv.FormatInt(v, 10), "zigzag "+strconv.FormatUint(z, 10), "one-byte varints", bytegrid.Varint))
		}
	}
	if err := add(primitive{ID: "zigzag", Title: "Zigzag encoding",
		About: "A signed varint first maps its value to an unsigned one, so that small negative numbers stay short: 0, -1, 1, -2, 2 become 0, 1, 2, 3, 4; (n << 1) ^ (n >> 31) for an int32, (n << 1) ^ (n >> 63) for an int64. The unsigned number is then written as an unsigned varint. A reader undoes it with (z >> 1) ^ -(z & 1).",
		Heads: [2]string{"Value", "Zigzag, bytes"}, Rows: zrows,
		Caption: "The one-byte varints of the table: values from -64 to 63",
	}, zfs); err != nil {
		return nil, err
	}

	// Varint.
	v150 := binary.AppendVarint(nil, -150)
	if err := add(primitive{ID: "varint", Title: "Varint",
		About: "A signed 32-bit integer, zigzag-encoded, then written as an unsigned varint: one to five bytes. The records of a record batch use it for their lengths, deltas and counts (Length, OffsetDelta, the key, value and header lengths, -1 for null).",
		Heads: [2]string{"Value", "Bytes"}, Rows: [][2]string{{"-150", "zigzag 299: " + hexBytes(v150)}, {"-1 (a null key)", hexBytes(binary.AppendVarint(nil, -1))}, {"2,147,483,647", hexBytes(binary.AppendVarint(nil, 1<<31-1))}},
		Caption: "-150 as a varint: zigzag 299 = 0101011 (43) with the top bit set, then 0000010 (2 × 128)",
	}, uvarintFields(0, v150, "varint -150")); err != nil {
		return nil, err
	}

	// Varlong.
	const day = 86_400_000
	vday := binary.AppendVarint(nil, day)
	if err := add(primitive{ID: "varlong", Title: "Varlong",
		About: "The same for a signed 64-bit integer: zigzag (n << 1) ^ (n >> 63), then an unsigned varint of one to ten bytes. A record's TimestampDelta is a varlong, in milliseconds after its batch's BaseTimestamp.",
		Heads: [2]string{"Value", "Bytes"}, Rows: [][2]string{{"86,400,000 (one day in ms)", "zigzag 172,800,000: " + hexBytes(vday)}, {"-9,223,372,036,854,775,808", hexBytes(binary.AppendVarint(nil, -1<<63))}},
		Caption: "86,400,000 as a varlong: four bytes of seven bits, the first three with the top bit set",
	}, uvarintFields(0, vday, "varlong 86400000")); err != nil {
		return nil, err
	}

	// Compact lengths.
	var cfs []bytegrid.Field
	at := 0
	put := func(f bytegrid.Field) {
		cfs = append(cfs, f)
		at += f.Bits / 8
	}
	put(bytesField(at, []byte{7}, "length", "7 → length 6", `compact string "orders"`, bytegrid.Length))
	put(bytesField(at, []byte("orders"), "Name", `"orders"`, `compact string "orders"`, bytegrid.Plain))
	put(bytesField(at, []byte{1}, "empty", "1 → length 0", "empty compact string", bytegrid.Length))
	put(bytesField(at, []byte{0}, "null", "0 → null", "null compact string", bytegrid.Length))
	put(bytesField(at, []byte{2}, "count", "2 → 1 element", "compact array of one int32", bytegrid.Length))
	put(bytesField(at, []byte{0, 0, 0, 5}, "[0]", "5", "compact array of one int32", bytegrid.Plain))
	if err := add(primitive{ID: "compact", Title: "Compact lengths (N+1)",
		About: "Flexible versions (KIP-482) write the length of a string or bytes and the count of an array as an unsigned varint of N+1, so that 0 can mean null: 1 is an empty string, 7 a string of six bytes. Classic versions write an int16 length before a string, an int32 before bytes and arrays.",
		Heads: [2]string{"Form", "Bytes"}, Rows: [][2]string{{`compact string "orders"`, "07 6f 72 64 65 72 73"}, {"empty compact string", "01"}, {"null compact string", "00"}, {"compact array of one element", "02 then the element"}, {`classic string "orders"`, "00 06 6f 72 64 65 72 73"}},
		Caption: "Compact forms side by side: a string, an empty string, a null string, an array of one int32",
	}, cfs); err != nil {
		return nil, err
	}

	// Nullable forms.
	var nfs []bytegrid.Field
	at = 0
	cfs = nil
	put(bytesField(at, []byte{0xff, 0xff}, "string length", "-1 → null", "nullable string", bytegrid.Length))
	put(bytesField(at, []byte{0}, "compact length", "0 → null", "compact nullable string", bytegrid.Length))
	put(bytesField(at, []byte{0xff}, "struct marker", "-1 → null", "nullable struct", bytegrid.Length))
	put(bytesField(at, []byte{0xff, 0xff, 0xff, 0xff}, "bytes length", "-1 → null", "nullable bytes", bytegrid.Length))
	put(bytesField(at, []byte{0xff, 0xff, 0xff, 0xff}, "array count", "-1 → null", "nullable array", bytegrid.Length))
	put(bytesField(at, []byte{1}, "struct marker", "1 → present", "nullable struct, present", bytegrid.Length))
	put(bytesField(at, []byte{0, 0, 0, 2}, "LeaderId", "2", "nullable struct, present", bytegrid.Plain))
	nfs = cfs
	if err := add(primitive{ID: "nullable", Title: "Nullable forms",
		About: "A field is nullable only in the versions its schema's nullableVersions says. Null is a length or count of -1 in classic versions (int16 for a string, int32 for bytes and arrays), 0 in compact ones; a nullable struct is preceded by an int8, -1 for null and 1 when the struct follows.",
		Heads: [2]string{"Form", "Null as"}, Rows: [][2]string{{"nullable string", "ff ff (int16 -1)"}, {"nullable bytes, nullable array", "ff ff ff ff (int32 -1)"}, {"compact nullable string, bytes, array", "00 (uvarint 0)"}, {"nullable struct", "ff (int8 -1); 01 then the struct when present"}},
		Caption: "Null in each form, then a nullable struct that is present",
	}, nfs); err != nil {
		return nil, err
	}

	// UUID.
	id, err := kafka.ParseUUID("00000000-0000-4000-8000-000000000001")
	if err != nil {
		return nil, fmt.Errorf("reference: primitives: %w", err)
	}
	if err := add(primitive{ID: "uuid", Title: "UUID",
		About: "Sixteen bytes, most significant first, as Java's UUID writes its two longs; drawn as 8-4-4-4-12 hex. The topic ids of these examples are version-4 UUIDs; the all-zero UUID means no id (a topic named only by its name).",
		Heads: [2]string{"Topic", "TopicId"}, Rows: [][2]string{{"orders", "00000000-0000-4000-8000-000000000001"}, {"none", "00000000-0000-0000-0000-000000000000"}},
		Caption: "The topic id of orders",
	}, []bytegrid.Field{bytesField(0, id[:], "TopicId", "00000000-0000-4000-8000-000000000001", "uuid", bytegrid.Plain)}); err != nil {
		return nil, err
	}

	// The record batch, from the Produce example.
	if fr != nil {
		p, err := recordBatch(fr, vo)
		if err != nil {
			return nil, err
		}
		if p != nil {
			out = append(out, *p)
		}
	}
	return out, nil
}

// recordBatch cuts the first record batch out of fr's annotated frame (the Produce request's
// Records) and lays it out as a grid of its own, its offsets from the batch's first byte; nil
// when fr has none.
func recordBatch(fr *kafka.Frame, vo kafkaview.Options) (*primitive, error) {
	view := kafkaview.NewWith(fr, vo)
	prefix := ""
	for _, f := range view.Fields {
		if strings.HasSuffix(f.Path, ".Records[0].BaseOffset") {
			prefix = strings.TrimSuffix(f.Path, "BaseOffset")
			break
		}
	}
	if prefix == "" {
		return nil, nil
	}
	outer := strings.TrimSuffix(prefix, "Records[0].") // "TopicData[0].PartitionData[0]."
	var fs []bytegrid.Field
	start := -1
	for _, f := range view.Fields {
		if !strings.HasPrefix(f.Path, prefix) {
			continue
		}
		if start < 0 {
			start = f.Offset
		}
		f.Offset -= start
		f.Path = strings.TrimPrefix(f.Path, outer)
		f.Group = strings.TrimPrefix(f.Group, outer)
		fs = append(fs, f)
	}
	colors := map[string]int{}
	for g, c := range view.Groups {
		colors[strings.TrimPrefix(g, outer)] = c
	}
	d, err := bytegrid.Layout(fs, bytegrid.Options{GroupColors: colors, ElideRows: site.ElideRows, TurnNames: true})
	if err != nil {
		return nil, fmt.Errorf("reference: primitives: record batch: %w", err)
	}
	n := 0
	if len(fs) > 0 {
		last := fs[len(fs)-1]
		n = (last.Offset + last.Bits) / 8
	}
	return &primitive{ID: "records", Title: "Records and the record batch",
		About:   "Produce and Fetch carry records as a record batch (magic 2, KIP-98): a fixed 61-byte header (BaseOffset, BatchLength, PartitionLeaderEpoch, Magic, the CRC-32C of everything after it, Attributes, LastOffsetDelta, the base and max timestamps, the producer's id, epoch and BaseSequence, the record count), then the records. Each record is varints: its Length, Attributes, TimestampDelta (a varlong), OffsetDelta, the key and value as a varint length (-1 for null) and bytes, and its headers. Older clients send message sets (magic 0 and 1) instead.",
		Heads:   [2]string{"Part", "Encoding"},
		Rows:    [][2]string{{"batch header", "61 bytes of fixed-width integers, big-endian"}, {"record count", "int32 (in the header)"}, {"each record", "varint Length, int8 Attributes, varlong TimestampDelta, varints after"}, {"compression", "Attributes bits 0-2; the records after the header are compressed whole"}},
		Caption: fmt.Sprintf("The record batch of the Produce example (%s), offsets from its first byte", byteCount(n)),
		Grid:    site.Figure{Drawing: d, Title: "Record batch: byte grid", Desc: "Byte grid of the Produce example's record batch, 32 bits a row."},
		fields:  fs,
	}, nil
}

// primitivesView is primitives.html.
type primitivesView struct {
	Release, Generator string
	Sections           []primitiveSection
}

type primitiveSection struct {
	primitive
	SVG template.HTML
	W   int
}

// writePrimitives writes primitives.html: the primitive types with a grid of each.
func (b *builder) writePrimitives() error {
	ps, err := b.primitives()
	if err != nil {
		return err
	}
	v := &primitivesView{Release: b.release, Generator: "kafkagrid"}
	for _, p := range ps {
		svg, err := inlineSVG(p.Grid, "prim-"+p.ID)
		if err != nil {
			return err
		}
		v.Sections = append(v.Sections, primitiveSection{primitive: p, SVG: svg, W: p.Grid.Width()})
	}
	var buf bytes.Buffer
	if err := b.tmpl.ExecuteTemplate(&buf, "primitives", v); err != nil {
		return fmt.Errorf("reference: primitives.html: %w", err)
	}
	return b.out.Create("primitives.html", func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// primitives lays out the primitive types of the build's release (the record batch from its
// Produce example, when it has one).
func (b *builder) primitives() ([]primitive, error) {
	var fr *kafka.Frame
	if a, ok := b.cat.Lookup("Produce"); ok {
		vecs, err := b.cat.Vectors(kafka.VectorOptions{})
		if err != nil {
			return nil, fmt.Errorf("reference: primitives: %w", err)
		}
		for _, vec := range vecs {
			if vec.API == a && vec.Request != nil {
				fr = vec.Request
			}
		}
	}
	return primitives(fr, kafkaview.Options{})
}

// primitivesHTML is primitives.html's template (parsed with the others, pageTemplates).
const primitivesHTML = `{{define "primitives"}}{{template "head" .}}<title>Primitive types · Kafka {{.Release}} protocol</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top"><span>kafkagrid</span><span class="mid"><a href="index.html">Kafka {{.Release}} index</a></span><span></span></nav>
<h1>Primitive types</h1>
<p class="lead">The encodings every frame is made of, each with a byte grid of an example: varints and zigzag, the compact lengths of flexible versions, the nullable forms, UUIDs and the record batch.</p>
<div class="toc">{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a>{{end}}</div>
{{range .Sections}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p>{{.About}}</p>
{{if .Rows}}<table class="hist"><thead><tr><th>{{index .Heads 0}}</th><th>{{index .Heads 1}}</th></tr></thead><tbody>
{{range .Rows}}<tr><td>{{index . 0}}</td><td class="mono">{{index . 1}}</td></tr>
{{end}}</tbody></table>{{end}}
<div class="gridfig"><figure style="--w:{{.W}}"><figcaption>{{.Caption}}</figcaption>{{.SVG}}</figure></div>
</section>
{{end}}<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}. <a href="index.html">Index</a></footer>
</main>
</body>
</html>
{{end}}`
