package kafkaview

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// testCatalog loads one release found by internal/testenv ($KAFKA_SCHEMAS).
func testCatalog(t *testing.T, release string) *kafka.Catalog {
	t.Helper()
	c, err := kafka.LoadCatalog(testenv.Release(t, release))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var viewOut = flag.String("viewout", "", "write every 4.0 grid and tree SVG into this folder, to look at")

// TestViewDrawsEveryFrame lays out and paints the grid and the tree of all 168 frames of 4.0
// and checks each SVG from its own geometry: well-formed XML, every text run inside its box,
// no two boxes overlapping; and that the grid and the tree agree on paths and colours.
func TestViewDrawsEveryFrame(t *testing.T) {
	c := testCatalog(t, "4.0")
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, vec := range vs {
		for _, f := range []*kafka.Frame{vec.Request, vec.Response} {
			n++
			t.Run(f.BaseName(), func(t *testing.T) {
				v := NewWith(f, Options{})
				checkView(t, f, v)
				g, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
				if err != nil {
					t.Fatalf("grid layout: %v", err)
				}
				var gb bytes.Buffer
				if err := svgcanvas.Write(&gb, g, svgcanvas.WriteOptions{Title: f.BaseName() + " grid"}); err != nil {
					t.Fatal(err)
				}
				if err := svgcheck.Check(gb.Bytes()); err != nil {
					t.Errorf("grid SVG: %v", err)
				}
				td, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: f.BaseName() + " tree"})
				if err != nil {
					t.Fatalf("tree layout: %v", err)
				}
				if err := td.Check(); err != nil {
					t.Errorf("tree geometry: %v", err)
				}
				var tb bytes.Buffer
				if err := svgcanvas.Write(&tb, td, svgcanvas.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				if err := svgcheck.CheckWith(tb.Bytes(), svgcheck.Options{BoxClass: "node", Rows: true}); err != nil {
					t.Errorf("tree SVG: %v", err)
				}
				checkSamePaths(t, gb.Bytes(), tb.Bytes())
				if *viewOut != "" {
					os.MkdirAll(*viewOut, 0o755)
					os.WriteFile(filepath.Join(*viewOut, f.BaseName()+"-grid.svg"), gb.Bytes(), 0o644)
					os.WriteFile(filepath.Join(*viewOut, f.BaseName()+"-tree.svg"), tb.Bytes(), 0o644)
				}
			})
		}
	}
	if n != 168 {
		t.Errorf("drew %d frames, want 168", n)
	}
}

// checkView checks the grid fields tile the frame and every group has a colour.
func checkView(t *testing.T, f *kafka.Frame, v *View) {
	t.Helper()
	if err := bytegrid.CheckFields(v.Fields); err != nil {
		t.Fatalf("grid fields: %v", err)
	}
	end := 0 // in bits
	for _, fd := range v.Fields {
		if fd.Offset != end {
			t.Fatalf("%s: starts at bit %d, want %d (gap or overlap)", fd.Path, fd.Offset, end)
		}
		end += fd.Bits
		if _, ok := v.Groups[fd.Group]; !ok && fd.Group != "" {
			t.Errorf("%s: group %q has no colour", fd.Path, fd.Group)
		}
		// A field not on byte boundaries (an attributes bit field) carries the bytes it touches.
		if !bytes.Equal(fd.Bytes, f.Bytes[fd.Offset/8:(fd.Offset+fd.Bits+7)/8]) {
			t.Errorf("%s: bytes differ from the frame's", fd.Path)
		}
	}
	if end != 8*len(f.Bytes) {
		t.Errorf("grid covers %d bits, frame has %d bytes", end, len(f.Bytes))
	}
	seen := map[int]string{}
	for g, i := range v.Groups {
		if o, dup := seen[i]; dup {
			t.Errorf("groups %q and %q share colour %d", g, o, i)
		}
		seen[i] = g
	}
}

// checkSamePaths checks that every data-path of a grid field that names a schema field (not a
// framing piece) is also the data-path of a tree node, so a page can highlight one from the
// other.
func checkSamePaths(t *testing.T, grid, tr []byte) {
	t.Helper()
	gp, tp := dataPaths(t, grid, "field"), dataPaths(t, tr, "node")
	for p := range gp {
		if strings.Contains(p, "#") {
			continue
		}
		if !tp[p] {
			t.Errorf("grid field %q has no tree node", p)
		}
	}
}

func dataPaths(t *testing.T, svg []byte, class string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "g" {
			continue
		}
		var cls, path string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "class":
				cls = a.Value
			case "data-path":
				path = a.Value
			}
		}
		if path != "" && strings.Contains(" "+cls+" ", " "+class+" ") {
			out[path] = true
		}
	}
	return out
}

// TestREADMEPictures keeps the Kafka pictures the README shows (docs/) equal to what the code
// draws; refresh them with go test ./site/kafkaview -update, and look at them before committing.
// Each picture comes in two layouts: the README's <picture> gives a phone-wide column (GitHub's
// is about 324 px on a 390-px phone) the narrow one, 16 bits a row and a tree without its Dec
// and Type columns, so that its text is drawn at 9 px or more there instead of at 0.57×.
func TestREADMEPictures(t *testing.T) {
	c := testCatalog(t, "4.0")
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, vec := range vs {
		if vec.API.Name != "ApiVersions" {
			continue
		}
		f := vec.Request
		v := New(f)
		grid := func(o bytegrid.Options, rows string) []byte {
			o.GroupColors, o.TurnNames = v.Groups, true
			g, err := bytegrid.Layout(v.Fields, o)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := svgcanvas.Write(&b, g, svgcanvas.WriteOptions{
				Title: "Kafka 4.0 ApiVersions v4 request: byte grid",
				Desc:  "The 41 bytes of the frame, " + rows + ": size, request header v2 and body, each field in its bytes with its value and hex.",
			}); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		drawTree := func(narrow bool, cols string) []byte {
			td, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: "Kafka 4.0 ApiVersions v4 request: expanded tree", Narrow: narrow})
			if err != nil {
				t.Fatal(err)
			}
			if err := td.Check(); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := svgcanvas.Write(&b, td, svgcanvas.WriteOptions{Desc: "The same 41 bytes as a tree: every field, length prefix and tagged-field section with " + cols + "."}); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		for name, got := range map[string][]byte{
			f.BaseName() + "-grid.svg":        grid(bytegrid.Options{}, "four to a row"),
			f.BaseName() + "-grid-narrow.svg": grid(bytegrid.Options{RowBits: 16, BitWidth: 15}, "two to a row"),
			f.BaseName() + "-tree.svg":        drawTree(false, "its offset, length and wire type"),
			f.BaseName() + "-tree-narrow.svg": drawTree(true, "its offset and length"),
		} {
			testenv.Golden(t, filepath.Join("..", "..", "docs", name), got) // the README's pictures
		}
		return
	}
	t.Fatal("no ApiVersions in 4.0")
}

// framesByName returns the example frames of a catalogue's highest versions by their base
// names ("3-Metadata-v13-response").
func framesByName(t *testing.T, c *kafka.Catalog) map[string]*kafka.Frame {
	t.Helper()
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	frames := map[string]*kafka.Frame{}
	for _, vec := range vs {
		frames[vec.Request.BaseName()] = vec.Request
		frames[vec.Response.BaseName()] = vec.Response
	}
	return frames
}

// TestViewNamesEveryBox checks that the grid names the boxes a reader could not place
// otherwise: scalar array elements carry their array's name (and the tree their value), and a
// null or empty string is its length prefix named after the field, and a tag section names
// the struct it closes.
func TestViewNamesEveryBox(t *testing.T) {
	frames := framesByName(t, testCatalog(t, "4.0"))
	tests := []struct {
		frame, path string
		gridName    string // the grid box's name ("" when the path has no box of its own)
		treeValue   string // the tree node's value ("-" when not checked)
	}{
		{"3-Metadata-v13-response", "Topics[0].Partitions[0].ReplicaNodes[0]", "ReplicaNodes[0]", "1"},
		{"3-Metadata-v13-response", "Topics[0].Partitions[0].OfflineReplicas[0]", "OfflineReplicas[0]", "3"},
		{"32-DescribeConfigs-v4-request", "Resources[0].ConfigurationKeys[0]", "ConfigurationKeys[0]", `"retention.ms"`},
		{"0-Produce-v12-response", "Responses[0].PartitionResponses[0].ErrorMessage#length", "ErrorMessage", "-"},
		{"0-Produce-v12-response", "Responses[0].PartitionResponses[0].ErrorMessage", "", "null"},
		{"3-Metadata-v13-response", "Topics[0]", "", ""},
		{"78-ShareFetch-v0-response", "Responses[0].Partitions[0]#tags", "Partitions[0] tags", "-"},
		{"78-ShareFetch-v0-response", "header#tags", "header tags", "-"},
	}
	for _, tc := range tests {
		t.Run(tc.frame+"/"+tc.path, func(t *testing.T) {
			f := frames[tc.frame]
			if f == nil {
				t.Fatalf("no frame %s", tc.frame)
			}
			v := New(f)
			if tc.gridName != "" {
				found := false
				for _, fd := range v.Fields {
					if fd.Path == tc.path {
						found = true
						if fd.Name != tc.gridName {
							t.Errorf("grid box %s named %q, want %q", tc.path, fd.Name, tc.gridName)
						}
					}
				}
				if !found {
					t.Errorf("no grid box with path %s", tc.path)
				}
			}
			if tc.treeValue == "-" {
				return
			}
			n := findNode(v.Tree, tc.path)
			if n == nil {
				t.Fatalf("no tree node %s", tc.path)
			}
			if n.Value != tc.treeValue {
				t.Errorf("tree node %s value %q, want %q", tc.path, n.Value, tc.treeValue)
			}
		})
	}
}

func findNode(n *tree.Node, path string) *tree.Node {
	if n.Path == path {
		return n
	}
	for _, c := range n.Children {
		if m := findNode(c, path); m != nil {
			return m
		}
	}
	return nil
}

// TestAttributeBits checks that a record batch's attributes (magic 2) and a legacy message's
// (magic 0 and 1) are drawn as their bit fields: in the grid, most significant first, each
// with the attributes' path and the bytes it touches; in the tree, as children of Attributes.
func TestAttributeBits(t *testing.T) {
	c := testCatalog(t, "3.9")
	api, ok := c.Lookup("Produce")
	if !ok {
		t.Fatal("no Produce")
	}
	// The built-in examples (without the override files, whose batches stay batches) give
	// Produce v0 and v1 a message set of magic 0, v2 one of magic 1 (kafka.LegacyMessage).
	frames := map[string]*kafka.Frame{}
	for _, v := range []int16{0, 2, 11} {
		body, _, err := kafka.Example(api, false, v, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := c.Encode(kafka.Message{API: api, Version: v, CorrelationID: 7, ClientID: "kafkagrid", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		frames[f.BaseName()] = f
	}
	for _, tc := range []struct {
		frame, path string
		want        []string // "name bits value" in grid order
	}{
		{"0-Produce-v11-request", "TopicData[0].PartitionData[0].Records[0].Attributes", []string{"unused 9 0",
			"hasDeleteHorizonMs 1 0 → false", "isControlBatch 1 0 → false", "isTransactional 1 1 → true",
			"timestampType 1 0 → CreateTime", "compression 3 0 → none"}},
		{"0-Produce-v2-request", "TopicData[0].PartitionData[0].Records[0].Attributes", []string{"unused 4 0",
			"timestampType 1 0 → CreateTime", "compression 3 0 → none"}},
		{"0-Produce-v0-request", "TopicData[0].PartitionData[0].Records[0].Attributes", []string{"unused 5 0",
			"compression 3 0 → none"}},
	} {
		t.Run(tc.frame, func(t *testing.T) {
			f := frames[tc.frame]
			if f == nil {
				t.Fatalf("no frame %s", tc.frame)
			}
			v := New(f)
			checkView(t, f, v)
			var got []string
			for _, fd := range v.Fields {
				if fd.Path == tc.path {
					got = append(got, fmt.Sprintf("%s %d %s", fd.Name, fd.Bits, fd.Value))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("grid fields %q\nwant %q", got, tc.want)
			}
			n := findNode(v.Tree, tc.path)
			if n == nil {
				t.Fatalf("no tree node %s", tc.path)
			}
			got = got[:0]
			for _, ch := range n.Children {
				got = append(got, ch.Name+" "+ch.Value)
			}
			var want []string
			for _, w := range tc.want {
				name, rest, _ := strings.Cut(w, " ")
				_, value, _ := strings.Cut(rest, " ")
				want = append(want, name+" "+value)
			}
			if !slices.Equal(got, want) {
				t.Errorf("tree children %q\nwant %q", got, want)
			}
		})
	}
}

// TestNested checks that an Envelope's RequestData and ResponseData are drawn as the frames
// they hold when the view can decode them, and as bytes with a note when it cannot.
func TestNested(t *testing.T) {
	c := testCatalog(t, "4.0")
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var env kafka.Vector
	for _, vec := range vs {
		if vec.API.Key == kafka.KeyEnvelope {
			env = vec
		}
	}
	if env.API == nil {
		t.Fatal("no Envelope")
	}
	// again encodes f with its nested bytes replaced by data (nil: as they are) as the answer
	// to req (nil: none): the codec reads the nested frame, or says why not.
	again := func(f *kafka.Frame, data []byte, req *kafka.Frame) *kafka.Frame {
		t.Helper()
		body := kafka.Values{}
		for k, v := range f.Body {
			body[k] = v
		}
		if data != nil {
			body["RequestData"] = data
		}
		g, err := c.Encode(kafka.Message{API: f.API, Response: f.Response, Version: f.Version, CorrelationID: f.CorrelationID, Body: body, Request: req})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	inner := env.Request.Body["RequestData"].([]byte)
	// broken overwrites the nested api key: no such API; short loses the last byte.
	broken := again(env.Request, append([]byte{0x7f, 0x7f}, inner[2:]...), nil)
	short := again(env.Request, inner[:len(inner)-1], nil)
	for _, tc := range []struct {
		name  string
		frame *kafka.Frame
		opts  Options
		path  string // a nested field's path that must have a grid box and a tree node
		value string // its value
		note  string // the start of the bytes field's description when drawn as bytes
	}{
		{"request", env.Request, Options{}, "RequestData.header.RequestApiKey", "19 → CreateTopics", ""},
		{"request/body", env.Request, Options{}, "RequestData.Topics[0].Name", `"shipments"`, ""},
		{"response", env.Response, Options{}, "ResponseData.Topics[0].Name", `"shipments"`, ""},
		{"request/flat", env.Request, Options{Flat: true}, "", "", ""},
		{"response/flat", env.Response, Options{Flat: true}, "", "", ""},
		{"response/no-request", again(env.Response, nil, nil), Options{}, "", "", "Not drawn as a frame: the nested response's API"},
		{"request/unknown-api", broken, Options{}, "", "", "Not drawn as a frame: kafka: nested frame: kafka: request: header.RequestApiKey: offset 4: unknown api key 32639."},
		{"request/short", short, Options{}, "", "", "Not drawn as a frame: kafka: nested frame:"},
		{"response/broken-request", again(env.Response, nil, broken), Options{}, "", "", "Not drawn as a frame: the nested response's API"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewWith(tc.frame, tc.opts)
			checkView(t, tc.frame, v)
			field := "RequestData"
			if tc.frame.Response {
				field = "ResponseData"
			}
			var box *bytegrid.Field
			for i := range v.Fields {
				if v.Fields[i].Path == field {
					box = &v.Fields[i]
				}
				if tc.path != "" && v.Fields[i].Path == tc.path && v.Fields[i].Value != tc.value {
					t.Errorf("grid box %s = %q, want %q", tc.path, v.Fields[i].Value, tc.value)
				}
			}
			if tc.path == "" {
				// Drawn as bytes: one box with the field's path, and the note.
				if box == nil {
					t.Fatalf("no grid box %s", field)
				}
				if !strings.HasPrefix(box.Desc, tc.note) {
					t.Errorf("box %s description %q, want it to start with %q", field, box.Desc, tc.note)
				}
				return
			}
			if box != nil {
				t.Errorf("the nested frame is also drawn as bytes (%s)", field)
			}
			n := findNode(v.Tree, tc.path)
			if n == nil {
				t.Fatalf("no tree node %s", tc.path)
			}
			if n.Value != tc.value {
				t.Errorf("tree node %s = %q, want %q", tc.path, n.Value, tc.value)
			}
			if fn := findNode(v.Tree, field); fn == nil || !strings.HasSuffix(fn.Value, ", embedded") {
				t.Errorf("tree node %s does not say it holds a frame: %+v", field, fn)
			}
			g, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := svgcanvas.Write(&buf, g, svgcanvas.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := svgcheck.Check(buf.Bytes()); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestBrackets checks which framing boxes get a bracket: an array's count opens its elements
// (none when it has none), an empty tag section closes its struct, one with tagged fields
// opens them.
func TestBrackets(t *testing.T) {
	frames := framesByName(t, testCatalog(t, "4.0"))
	for _, tc := range []struct {
		frame, path string
		want        bytegrid.Bracket
	}{
		{"3-Metadata-v13-response", "Brokers#length", bytegrid.Opens},
		{"3-Metadata-v13-response", "Brokers[0]#tags", bytegrid.Closes},
		{"3-Metadata-v13-response", "header#tags", bytegrid.Closes},
		{"1-Fetch-v17-response", "Responses[0].Partitions[0].Records[1].Records[0].Headers#length", bytegrid.NoBracket},
		{"18-ApiVersions-v4-response", "body#tags", bytegrid.Opens},
		{"3-Metadata-v13-response", "Brokers[0].Host#length", bytegrid.NoBracket},
	} {
		t.Run(tc.frame+"/"+tc.path, func(t *testing.T) {
			f := frames[tc.frame]
			if f == nil {
				t.Fatalf("no frame %s", tc.frame)
			}
			for _, fd := range New(f).Fields {
				if fd.Path == tc.path {
					if fd.Bracket != tc.want {
						t.Errorf("bracket %q, want %q", fd.Bracket, tc.want)
					}
					return
				}
			}
			t.Errorf("no grid box %s", tc.path)
		})
	}
}

// TestRecordLengthNames: the grid names a record batch's, a record's and a records field's
// length boxes as the tree names their rows, so both views call a box the same; only a string
// or bytes field made of its length alone lends the box its name.
func TestRecordLengthNames(t *testing.T) {
	fr := framesByName(t, testCatalog(t, "4.0"))["0-Produce-v12-request"]
	if fr == nil {
		t.Fatal("no Produce v12 request")
	}
	v := NewWith(fr, Options{})
	rows := map[string]string{}
	var walk func(n *tree.Node)
	walk = func(n *tree.Node) {
		rows[n.Path] = n.Name
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(v.Tree)
	named := 0
	for _, f := range v.Fields {
		for _, suffix := range []string{"Records[0].BatchLength", "Records[0].Records[0].Length", "PartitionData[0].Records#length"} {
			if strings.HasSuffix(f.Path, suffix) {
				named++
				if f.Name != rows[f.Path] {
					t.Errorf("%s: grid box %q, tree row %q", f.Path, f.Name, rows[f.Path])
				}
			}
		}
	}
	if named != 3 {
		t.Errorf("found %d of the 3 length boxes", named)
	}
}

// TestGroupsByWhatTheyAre: an array's elements share their array's group (and colour), their
// fields carrying the element's index as Item, so a real broker's ApiVersions response (78
// ApiKeys, as Kafka 4.0 answers; built with kmsg) has a legend a person can read: under 15
// entries (4: header, body, ApiKeys and SupportedFeatures), where one group per element
// made 80.
func TestGroupsByWhatTheyAre(t *testing.T) {
	c := testCatalog(t, "4.0")
	api, ok := c.Lookup("ApiVersions")
	if !ok {
		t.Fatal("no ApiVersions in 4.0")
	}
	resp := kmsg.NewApiVersionsResponse()
	resp.Version = 3
	for k := int16(0); k < 78; k++ {
		key := kmsg.NewApiVersionsResponseApiKey()
		key.ApiKey, key.MinVersion, key.MaxVersion = k, 0, k%17
		resp.ApiKeys = append(resp.ApiKeys, key)
	}
	f := kmsg.NewApiVersionsResponseSupportedFeature()
	f.Name, f.MinVersion, f.MaxVersion = "metadata.version", 1, 27
	resp.SupportedFeatures = append(resp.SupportedFeatures, f)
	body := resp.AppendTo(nil)
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))
	frame = binary.BigEndian.AppendUint32(frame, 7)
	frame = append(frame, body...)
	fr, err := c.Decode(frame, kafka.DecodeOptions{Response: true, API: api, Version: 3})
	if err != nil {
		t.Fatal(err)
	}
	v := New(fr)
	groups := map[string]bool{}
	items := map[string]bool{}
	for _, fd := range v.Fields {
		if fd.Group != "" {
			groups[fd.Group] = true
		}
		if fd.Group == "ApiKeys" {
			items[fd.Item] = true
		}
	}
	if len(groups) >= 15 || len(v.Groups) >= 15 {
		t.Errorf("%d groups (%v), want under 15", len(groups), v.Groups)
	}
	for _, g := range []string{"header", "body", "ApiKeys", "SupportedFeatures"} {
		if !groups[g] {
			t.Errorf("no group %q in %v", g, v.Groups)
		}
	}
	if len(items) != 78 || !items["[0]"] || !items["[77]"] {
		t.Errorf("the ApiKeys fields carry %d items, want [0] … [77]", len(items))
	}
	d, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Swatch) != len(groups) {
		t.Errorf("the legend has %d entries, want %d", len(d.Swatch), len(groups))
	}
	// Each element's letter and index is written where it starts: 78 of "C[i]".
	marks := map[string]bool{}
	for _, b := range d.Fields {
		for _, r := range b.Runs {
			if r.Class == "group" && strings.HasPrefix(r.S, style.GroupMark(v.Groups["ApiKeys"])+"[") {
				marks[r.S] = true
			}
		}
	}
	if len(marks) != 78 {
		t.Errorf("%d elements of ApiKeys marked in the grid, want 78", len(marks))
	}
	// The tree: the elements' rows share the array's colour.
	td, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range td.Rows {
		if strings.HasPrefix(r.Path, "ApiKeys[") && strings.HasSuffix(r.Path, "]") && !strings.Contains(r.Path, ".") {
			n++
			if r.Color != v.Groups["ApiKeys"] {
				t.Errorf("tree row %s has colour %d, the array %d", r.Path, r.Color, v.Groups["ApiKeys"])
			}
		}
	}
	if n != 78 {
		t.Errorf("%d element rows in the tree, want 78", n)
	}
}

func TestUnindexed(t *testing.T) {
	for _, c := range [][2]string{
		{"Topics[0].Partitions[12]", "Topics.Partitions"},
		{"header", "header"},
		{"a[x].b[]", "a[x].b[]"},
		{"Records[3].Headers[0]", "Records.Headers"},
		{"", ""},
	} {
		if got := unindexed(c[0]); got != c[1] {
			t.Errorf("unindexed(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
