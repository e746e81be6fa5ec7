package dissector

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// tshark returns the path of tshark, or skips the test (fails it under CI, where .ci/run
// installs it).
func tshark(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tshark")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tshark is not installed: %v", err)
		}
		t.Skip("tshark is not installed")
	}
	return p
}

// runTshark dissects a capture with the Lua dissector and returns its -T json output.
func runTshark(t *testing.T, bin, lua, pcap string, extra ...string) []byte {
	t.Helper()
	args := append([]string{"-n", "-r", pcap, "-X", "lua_script:" + lua, "--disable-protocol", "kafka", "-T", "json"}, extra...)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no user's preferences or plugins
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v\n%s", err, stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "Lua") || strings.Contains(s, "lua") {
		t.Fatalf("tshark said on stderr:\n%s", s)
	}
	return out
}

// jnode is a member of tshark's JSON, in document order, duplicate keys kept.
type jnode struct {
	key  string
	val  string // a string leaf's value
	kids []*jnode
	obj  bool
}

// parseJSON reads JSON keeping the order and the duplicate keys of objects.
func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var read func(key string) (*jnode, error)
	read = func(key string) (*jnode, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		n := &jnode{key: key}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				n.obj = true
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return nil, err
					}
					c, err := read(kt.(string))
					if err != nil {
						return nil, err
					}
					n.kids = append(n.kids, c)
				}
			case '[':
				for dec.More() {
					c, err := read(key)
					if err != nil {
						return nil, err
					}
					n.kids = append(n.kids, c)
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
		case string:
			n.val = v
		case json.Number:
			n.val = v.String()
		case bool:
			n.val = strconv.FormatBool(v)
		}
		return n, nil
	}
	return read("")
}

// pdus returns the kafkagrid layers of every packet, in order: one per Kafka frame.
func pdus(root *jnode) []*jnode {
	var out []*jnode
	for _, pkt := range root.kids {
		for _, src := range pkt.kids {
			if src.key != "_source" {
				continue
			}
			for _, layers := range src.kids {
				if layers.key != "layers" {
					continue
				}
				for _, l := range layers.kids {
					if l.key != "kafkagrid" {
						continue
					}
					if !l.obj { // several frames of one packet: an array of them
						out = append(out, l.kids...)
					} else {
						out = append(out, l)
					}
				}
			}
		}
	}
	return out
}

// values flattens a kafkagrid layer: filter name → the values shown, in order.
func values(n *jnode, out map[string][]string) {
	for _, c := range n.kids {
		switch {
		case c.obj:
			out[c.key] = append(out[c.key], "")
			values(c, out)
		case len(c.kids) > 0: // a duplicate key: an array of values or subtrees
			for _, e := range c.kids {
				if e.obj {
					out[c.key] = append(out[c.key], "")
					values(e, out)
				} else {
					out[c.key] = append(out[c.key], e.val)
				}
			}
		default:
			out[c.key] = append(out[c.key], c.val)
		}
	}
}

// frameCase is one frame of the capture.
type frameCase struct {
	name     string
	bytes    []byte
	response bool
}

// setCorr writes a frame's correlation id into its bytes.
func setCorr(b []byte, response bool, id int32) []byte {
	b = bytes.Clone(b)
	at := 8
	if response {
		at = 4
	}
	binary.BigEndian.PutUint32(b[at:], uint32(id))
	return b
}

// releaseFrames is every frame `kafkagrid build -format bin` writes for a release (every
// version of every API, requests and responses, and the edge cases), and the records examples
// again with each codec (-compression): gzip (opened), snappy, xerial snappy, lz4 and zstd
// (marked), each pair with its own correlation id.
func releaseFrames(t *testing.T, c *kafka.Catalog) [][2]frameCase {
	t.Helper()
	var pairs [][2]frameCase
	corr := int32(100)
	add := func(name string, req, resp *kafka.Frame) {
		corr++
		p := [2]frameCase{{name: name + " request", bytes: setCorr(req.Bytes, false, corr)}}
		if resp != nil {
			p[1] = frameCase{name: name + " response", bytes: setCorr(resp.Bytes, true, corr), response: true}
		}
		pairs = append(pairs, p)
	}
	vecs, err := c.Vectors(kafka.VectorOptions{Versions: kafka.AllVersions()})
	if err != nil {
		t.Fatal(err)
	}
	byVersion := map[string]*kafka.Frame{}
	for _, v := range vecs {
		add(v.Request.BaseName(), v.Request, v.Response)
		byVersion[v.API.Name+"/"+strconv.Itoa(int(v.Request.Version))] = v.Request
	}
	for _, o := range []kafka.VectorOptions{
		{Compression: kafka.CodecGzip}, {Compression: kafka.CodecSnappy}, {Compression: kafka.CodecSnappy, Xerial: true},
		{Compression: kafka.CodecLZ4}, {Compression: kafka.CodecZstd},
	} {
		o.Versions = kafka.AllVersions()
		vecs, err := c.Vectors(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vecs {
			if v.API.Facts().Records && !v.Uncompressed {
				add(v.Request.BaseName()+" "+o.Compression.String(), v.Request, v.Response)
			}
		}
	}
	edges, err := c.EdgeCases()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		req, resp := e.Request, e.Response
		if req == nil && resp != nil {
			// A response alone answers the API's highest version (the ApiVersions fallback
			// answers a version the broker does not speak), else its own version's request.
			if req = byVersion[e.API.Name+"/"+strconv.Itoa(int(e.API.Version))]; req == nil {
				t.Fatalf("edge case %s: no request", e.Name)
			}
		}
		if req != nil {
			add(e.API.Name+" "+e.Name, req, resp)
		}
	}
	return pairs
}

// writeCapture writes the pairs as TCP conversations to port 9092: groups of eight requests
// sent at once (several frames to a segment), then their responses, in 1000-byte segments
// (large frames cut across segments). It returns the frames in the order tshark reads them.
func writeCapture(t *testing.T, path string, pairs [][2]frameCase) []frameCase {
	t.Helper()
	ends := []capturetest.Endpoints{{
		Client: netip.MustParseAddrPort("10.0.0.1:40000"),
		Server: netip.MustParseAddrPort("10.0.0.2:9092"),
	}}
	var chunks []capturetest.Chunk
	var order []frameCase
	for i := 0; i < len(pairs); i += 8 {
		group := pairs[i:min(i+8, len(pairs))]
		var reqs, resps []byte
		for _, p := range group {
			reqs = append(reqs, p[0].bytes...)
			order = append(order, p[0])
		}
		for _, p := range group {
			if p[1].bytes != nil {
				resps = append(resps, p[1].bytes...)
				order = append(order, p[1])
			}
		}
		chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: reqs})
		if len(resps) > 0 {
			chunks = append(chunks, capturetest.Chunk{Data: resps})
		}
	}
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{MSS: 1000}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return order
}

// expected is what the dissector must show of a frame decoded by package kafka: filter name →
// values, in order.
func (g *gen) expected(f *kafka.Frame) map[string][]string {
	out := map[string][]string{}
	put := func(k, v string) { out[k] = append(out[k], v) }
	var a *genAPI
	for _, x := range g.apis {
		if f.API != nil && x.key == f.API.Key {
			a = x
		}
	}
	if !f.Response {
		put("kafkagrid.api_key", strconv.Itoa(int(f.API.Key)))
		put("kafkagrid.api_version", strconv.Itoa(int(f.Version)))
		if id, ok := f.Header["ClientId"]; ok {
			if s, ok := id.(string); ok {
				put("kafkagrid.client_id", s)
			} else {
				put("kafkagrid.null", "kafkagrid.client_id")
			}
		}
	} else {
		put("kafkagrid.api_key", strconv.Itoa(int(f.API.Key)))
		put("kafkagrid.api_version", strconv.Itoa(int(f.Version)))
	}
	put("kafkagrid.correlation_id", strconv.Itoa(int(f.CorrelationID)))
	for _, n := range f.Root.Children {
		if n.Kind == kafka.KindHeader {
			for _, c := range n.Children {
				if c.Kind == kafka.KindData && c.Field == nil {
					put("kafkagrid.unknown_tag", colonHex(c.Raw.([]byte)))
				}
			}
		}
		if n.Kind == kafka.KindBody {
			g.expectNode(a, f.Response, n, f.Bytes, out)
		}
	}
	return out
}

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// snakePath is a node's path in filter-name form: snake case, no indexes.
func snakePath(p string) string {
	p = indexRE.ReplaceAllString(p, "")
	parts := strings.Split(p, ".")
	for i, s := range parts {
		parts[i] = Snake(s)
	}
	return strings.Join(parts, ".")
}

func (g *gen) expectNode(a *genAPI, response bool, n *kafka.Node, data []byte, out map[string][]string) {
	put := func(k, v string) { out[k] = append(out[k], v) }
	for _, c := range n.Children {
		switch {
		case c.Field == nil || c.Kind == kafka.KindLength || c.Kind == kafka.KindData || c.Kind == kafka.KindTagKey ||
			c.Kind == kafka.KindTagSize || c.Kind == kafka.KindTagSection:
			if c.Kind == kafka.KindData && c.Field == nil && strings.Contains(c.Path, "#tag") {
				put("kafkagrid.unknown_tag", colonHex(c.Raw.([]byte)))
			}
			continue
		}
		f := c.Field
		abbrev := g.abbrev(a, response, f, snakePath(c.Path), g.uses)
		if c.Kind == kafka.KindElement && f.Type.Prim == schemas.StructType {
			g.expectNode(a, response, c, data, out)
			continue
		}
		if c.Raw == nil && c.Kind != kafka.KindArray && c.Kind != kafka.KindStruct {
			put("kafkagrid.null", abbrev)
			continue
		}
		switch c.Kind {
		case kafka.KindArray:
			if c.Value == "null" {
				put("kafkagrid.null", abbrev)
			} else if f.Type.Prim == schemas.StructType {
				put(abbrev, "")
			}
			g.expectNode(a, response, c, data, out)
			continue
		case kafka.KindStruct:
			if c.Value == "null" {
				put("kafkagrid.null", abbrev)
				continue
			}
			put(abbrev, "")
			g.expectNode(a, response, c, data, out)
			continue
		}
		if recordsPrim(f) == schemas.Records {
			put(abbrev, "")
			g.expectRecords(c, data, out)
			continue
		}
		put(abbrev, showValue(c.Raw, f.Type.Prim))
		for _, d := range c.Children {
			// An Envelope's forwarded message, dissected in its bytes field.
			if e, ok := d.Raw.(*kafka.Embedded); ok && e.Frame != nil {
				for k, v := range g.expected(e.Frame) {
					out[k] = append(out[k], v...)
				}
			}
		}
		if isErrorCode(f) {
			put("kafkagrid.error_code", showValue(c.Raw, f.Type.Prim))
		}
	}
}

// expectRecords is the fields of a records field's nodes: batches, records, headers, legacy
// messages; the records of gzip batches opened, the others marked.
func (g *gen) expectRecords(n *kafka.Node, data []byte, out map[string][]string) {
	put := func(k, v string) { out[k] = append(out[k], v) }
	if comp, ok := n.Raw.(*kafka.Compressed); ok {
		put("kafkagrid.compressed", colonHex(data[n.Offset:n.Offset+n.Length]))
		if comp.Codec == kafka.CodecGzip && comp.Root != nil {
			g.expectRecords(comp.Root, comp.Data, out)
		}
		return
	}
	prefix := ""
	switch n.WireType {
	case "record_batch":
		put("kafkagrid.record_batch", "")
		prefix = "kafkagrid.record_batch."
	case "record":
		put("kafkagrid.record", "")
		prefix = "kafkagrid.record."
	case "header":
		prefix = "kafkagrid.record.header."
	case "message":
		put("kafkagrid.message", "")
		prefix = "kafkagrid.message."
	}
	if prefix == "" {
		for _, c := range n.Children {
			g.expectRecords(c, data, out)
		}
		return
	}
	for _, c := range n.Children {
		name := prefix + Snake(c.Name)
		switch {
		case c.Kind == kafka.KindArray && c.Name == "Records":
			put(name, strconv.Itoa(countOf(c)))
			g.expectRecords(c, data, out)
			continue
		case c.Kind == kafka.KindArray && c.Name == "Headers":
			put(name, strconv.Itoa(countOf(c)))
			g.expectRecords(c, data, out)
			continue
		case c.Kind == kafka.KindLength || c.Kind == kafka.KindData:
			if c.Name == "BatchLength" || c.Name == "MessageSize" || c.Name == "Length" {
				put(name, strconv.FormatInt(c.Raw.(int64), 10))
			}
			continue
		case c.WireType == "record_batch" || c.WireType == "record" || c.WireType == "message":
			g.expectRecords(c, data, out)
			continue
		}
		if c.Name == "Value" && c.WireType == "bytes" && len(c.Children) > 0 {
			if _, ok := c.Children[len(c.Children)-1].Raw.(*kafka.Compressed); ok {
				g.expectRecords(c, data, out) // a compressed wrapper's value
				continue
			}
		}
		if c.Name == "Attributes" && prefix == "kafkagrid.record_batch." {
			v := c.Raw.(int64)
			put(name, strconv.FormatInt(v, 10))
			put("kafkagrid.record_batch.codec", strconv.FormatInt(int64(uint16(v)&7), 10))
			continue
		}
		switch v := c.Raw.(type) {
		case nil:
			put("kafkagrid.null", name)
		case int64:
			if c.Name == "CRC" {
				put(name, fmt.Sprintf("0x%08x", uint32(v)))
			} else {
				put(name, strconv.FormatInt(v, 10))
			}
		case []byte:
			put(name, colonHex(v))
		case string:
			put(name, v)
		default:
			put(name, fmt.Sprint(v))
		}
	}
}

func countOf(n *kafka.Node) int {
	for _, c := range n.Children {
		if c.Kind == kafka.KindLength {
			return int(c.Raw.(int64))
		}
	}
	return 0
}

// showValue is a value as tshark's JSON shows it.
func showValue(v any, p schemas.Prim) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case []byte:
		return colonHex(v)
	case kafka.UUID:
		h := hex.EncodeToString(v[:])
		return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}
	return fmt.Sprint(v)
}

func colonHex(b []byte) string {
	h := hex.EncodeToString(b)
	var s strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			s.WriteByte(':')
		}
		s.WriteString(h[i : i+2])
	}
	return s.String()
}

// checked are the filter names compared: the header fields and every schema and records field.
func checked(k string) bool {
	switch k {
	case "kafkagrid.size", "kafkagrid.header", "kafkagrid.body", "kafkagrid.header_version", "kafkagrid.request_frame",
		"kafkagrid.tagged_fields", "kafkagrid.tag", "kafkagrid.tag_size", "kafkagrid.request", "kafkagrid.response",
		"kafkagrid.array", "kafkagrid.element", "kafkagrid", "kafkagrid.response_frame",
		"kafkagrid.compressed.closed", "kafkagrid.fallback", "kafkagrid.malformed", "kafkagrid.trailing":
		return false
	}
	return strings.HasPrefix(k, "kafkagrid.") && !strings.HasSuffix(k, "_tree")
}

// compareRelease dissects every frame of a release with tshark and compares each with
// package kafka's decoding; it returns the frames compared.
func compareRelease(t *testing.T, bin, dir string, c *kafka.Catalog, cats []*kafka.Catalog) int {
	t.Helper()
	skip := map[string]bool{}
	for _, d := range Disagreements(cats) {
		if slices.Contains(d.Others, c.Release.Name()) {
			skip[fmt.Sprint(d.Key, d.Response, d.Version)] = true
		}
	}
	t.Helper()
	g, err := build(cats)
	if err != nil {
		t.Fatal(err)
	}
	lua := filepath.Join(dir, "kafka.lua")
	f, err := os.Create(lua)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(f, cats, Options{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pcap := filepath.Join(dir, "frames.pcap")
	order := writeCapture(t, pcap, releaseFrames(t, c))
	out := runTshark(t, bin, lua, pcap)
	root, err := parseJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	got := pdus(root)
	if len(got) != len(order) {
		t.Fatalf("tshark shows %d frames, the capture has %d", len(got), len(order))
	}
	reqs := map[int32]*kafka.Frame{}
	bad, skipped := 0, 0
	for i, fc := range order {
		var fr *kafka.Frame
		var err error
		// A version a newer release defines otherwise is read as that one defines it: not
		// compared (Disagreements).
		if fc.response {
			req := reqs[int32(binary.BigEndian.Uint32(fc.bytes[4:]))]
			if req == nil || skip[fmt.Sprint(req.API.Key, true, req.Version)] {
				skipped++
				continue
			}
			fr, err = definer(cats, req.API.Key, req.Version).DecodeResponse(fc.bytes, req, kafka.DecodeOptions{})
		} else {
			key, v := int16(binary.BigEndian.Uint16(fc.bytes[4:])), int16(binary.BigEndian.Uint16(fc.bytes[6:]))
			dc := definer(cats, key, v)
			if skip[fmt.Sprint(key, false, v)] {
				dc = c
			}
			fr, err = dc.Decode(fc.bytes, kafka.DecodeOptions{})
			if err == nil {
				reqs[fr.CorrelationID] = fr
			}
			if skip[fmt.Sprint(key, false, v)] {
				skipped++
				continue
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", fc.name, err)
		}
		have := map[string][]string{}
		values(got[i], have)
		diffs := g.diffFrame(fr, have)
		if len(diffs) > 0 {
			bad++
			if bad <= 10 {
				t.Errorf("frame %d, %s:\n  %s", i, fc.name, strings.Join(diffs, "\n  "))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d frames differ", bad, len(order)-skipped)
	}
	if skipped > 0 {
		t.Logf("%d frames of versions a newer release defines otherwise not compared", skipped)
	}
	return len(order) - skipped
}

// diffFrame says how what tshark shows of a frame (have) differs from package kafka's
// decoding of it.
func (g *gen) diffFrame(fr *kafka.Frame, have map[string][]string) []string {
	want := g.expected(fr)
	var diffs []string
	for k, v := range have {
		if checked(k) && !equalVals(v, want[k]) {
			diffs = append(diffs, fmt.Sprintf("%s: tshark %q, kafkagrid %q", k, clip(v), clip(want[k])))
		}
	}
	for k, v := range want {
		if _, ok := have[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: missing in tshark (kafkagrid %q)", k, clip(v)))
		}
	}
	for k, v := range have {
		if strings.HasPrefix(k, "kafkagrid.malformed") || strings.HasPrefix(k, "kafkagrid.trailing") || k == "_ws.malformed" {
			diffs = append(diffs, fmt.Sprintf("expert info %s %q", k, v))
		}
	}
	sort.Strings(diffs)
	return diffs
}

// definer is the catalogue whose definition of an API's version the dissector of cats reads:
// the newest that has it.
func definer(cats []*kafka.Catalog, key, v int16) *kafka.Catalog {
	for i := len(cats) - 1; i >= 0; i-- {
		for _, a := range cats[i].APIs {
			if a.Key == key && a.Request.ValidIn(v) && a.Response.ValidIn(v) {
				return cats[i]
			}
		}
	}
	return cats[len(cats)-1]
}

func clip(v []string) []string {
	if len(v) > 6 {
		return append(v[:6:6], fmt.Sprintf("… %d in all", len(v)))
	}
	return v
}

func equalVals(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !sameFloat(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameFloat(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

var _ = io.Discard

// TestTshark: every frame of every release (-short: the newest), dissected by tshark with the
// release's dissector, shows every field's value as package kafka decodes it.
func TestTshark(t *testing.T) {
	bin := tshark(t)
	dirs := testenv.All(t)
	if testing.Short() {
		dirs = dirs[len(dirs)-1:]
	}
	if only := os.Getenv("KAFKAGRID_DISSECTOR_RELEASE"); only != "" {
		dirs = []string{filepath.Join(testenv.Releases(t), only)}
	}
	total := 0
	for _, d := range dirs {
		t.Run(filepath.Base(d), func(t *testing.T) {
			c, err := kafka.LoadCatalog(d)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if keep := os.Getenv("KAFKAGRID_DISSECTOR_KEEP"); keep != "" {
				dir = keep // to look at with tshark
			}
			n := compareRelease(t, bin, dir, c, []*kafka.Catalog{c})
			total += n
			t.Logf("Kafka %s: %d frames compared", c.Release.Name(), n)
		})
	}
	t.Logf("%d frames of %d releases compared", total, len(dirs))
}

// TestTsharkReleases: one dissector of every release reads every release's frames as that
// release's own does, but for the versions a newer release defines otherwise on the wire
// (Disagreements), which it reads as the newer one does.
func TestTsharkReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("every release's capture through the dissector of them all: not with -short")
	}
	bin := tshark(t)
	var cats []*kafka.Catalog
	for _, d := range testenv.All(t) {
		c, err := kafka.LoadCatalog(d)
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, c)
	}
	total := 0
	for _, c := range cats {
		t.Run(c.Release.Name(), func(t *testing.T) {
			total += compareRelease(t, bin, t.TempDir(), c, cats)
		})
	}
	t.Logf("%d frames of %d releases compared with the dissector of them all", total, len(cats))
}
