package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// decodeVectors writes the 4.0 Produce and ApiVersions frames to a temp dir.
func decodeVectors(t *testing.T) (dir, schemas string, files map[string]string) {
	t.Helper()
	schemas = testenv.Release(t, "4.0")
	c, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	files = map[string]string{}
	for _, v := range vs {
		if v.API.Name != "Produce" && v.API.Name != "ApiVersions" && v.API.Name != "Metadata" {
			continue
		}
		for _, f := range []*kafka.Frame{v.Request, v.Response} {
			p := filepath.Join(dir, f.BaseName()+".bin")
			if err := os.WriteFile(p, f.Bytes, 0o644); err != nil {
				t.Fatal(err)
			}
			files[f.BaseName()] = p
		}
	}
	return dir, schemas, files
}

func TestDecodeVerb(t *testing.T) {
	_, schemas, files := decodeVectors(t)
	out, errs, code := runCmd(t, "decode", "-schemas", schemas, files["0-Produce-v12-request"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"offset  len  type",
		"     0    4  int32                      size = 162 bytes",
		"header = RequestHeader v2",
		"Acks = -1",
		`Key = "order-1"`,
		"CRC = 0x",
		"tagged fields = 0 → none",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, errs, code = runCmd(t, "decode", "-schemas", schemas, "-response", "-api", "ApiVersions", "-format", "json", files["18-ApiVersions-v4-response"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		API           string `json:"api"`
		HeaderVersion int    `json:"headerVersion"`
		Root          struct {
			Children []struct{ Path string } `json:"children"`
		} `json:"root"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if j.API != "ApiVersions" || j.HeaderVersion != 0 || len(j.Root.Children) != 3 {
		t.Errorf("json: %+v", j)
	}

	// An explicit version.
	if _, errs, code = runCmd(t, "decode", "-schemas", schemas, "-response", "-api", "0", "-version", "12", files["0-Produce-v12-response"]); code != 0 {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestDecodeVerbErrors(t *testing.T) {
	dir, schemas, files := decodeVectors(t)
	cut := filepath.Join(dir, "cut.bin")
	data, _ := os.ReadFile(files["0-Produce-v12-request"])
	os.WriteFile(cut, data[:40], 0o644)
	// A response under another name: nothing says what it answers.
	garbled := filepath.Join(dir, "resp.bin")
	resp, _ := os.ReadFile(files["3-Metadata-v13-response"])
	os.WriteFile(garbled, resp, 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
		out  string // in stdout
	}{
		{"no file", []string{"decode", "-schemas", schemas}, 2, "want one FILE.bin", ""},
		{"version without api", []string{"decode", "-schemas", schemas, "-version", "3", cut}, 2, "-version goes with -api", ""},
		{"bad port", []string{"decode", "-schemas", schemas, "-port", "x", cut}, 2, `-port "x"`, ""},
		// Only Metadata v13 reads it whole: the bytes make the API and version clear.
		{"unpaired response", []string{"decode", "-schemas", schemas, garbled}, 0, "", "note: the only reading of these bytes (whole frame) that decodes them whole: Metadata v13 response"},
		{"bad format", []string{"decode", "-schemas", schemas, "-format", "xml", cut}, 2, `-format "xml"`, ""},
		{"response without api", []string{"decode", "-schemas", schemas, "-response", cut}, 2, "-response needs -api", ""},
		{"unknown api", []string{"decode", "-schemas", schemas, "-response", "-api", "Nope", cut}, 2, `-api: no API "Nope" in Kafka 4.0 (kafkagrid list shows them)`, ""},
		{"missing file", []string{"decode", "-schemas", schemas, filepath.Join(dir, "nope.bin")}, 1, "no such file", ""},
		{"truncated", []string{"decode", "-schemas", schemas, cut}, 1,
			"kafkagrid: decode: " + cut + ": kafka: Produce v12 request: #size: offset 0: size 162 exceeds the 36 bytes left", "size = 162 bytes"},
		{"wrong version", []string{"decode", "-schemas", schemas, "-response", "-api", "Produce", "-version", "99", files["0-Produce-v12-response"]}, 1,
			"version 99 is not valid", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) || !strings.Contains(out, tt.out) {
				t.Errorf("exit %d, stderr %q, stdout %q", code, errs, out)
			}
		})
	}
}

func TestDecodeHelp(t *testing.T) {
	errs, _, code := runCmd(t, "decode", "-h") // help asked for goes to stdout
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, flag := range []string{"-schemas", "-release", "-response", "-api", "-version", "-format"} {
		if !strings.Contains(errs, flag) {
			t.Errorf("help lacks %s:\n%s", flag, errs)
		}
	}
}

// TestDecodeForms: the forms the issue names decode without flags: a response file named as
// build names it, xxd output on standard input, frames back to back, and a capture with -o.
func TestDecodeForms(t *testing.T) {
	dir, schemas, files := decodeVectors(t)
	out, errs, code := runCmd(t, "decode", "-schemas", schemas, files["0-Produce-v12-response"])
	if code != 0 || !strings.Contains(out, "body = ProduceResponse v12") {
		t.Fatalf("named response: exit %d: %s\n%s", code, errs, out)
	}

	// xxd frame.bin | kafkagrid decode -
	xxd, err := exec.Command("xxd", files["0-Produce-v12-request"]).Output()
	if err != nil {
		t.Fatalf("xxd (.ci/run installs it): %v", err)
	}
	stdin := filepath.Join(dir, "stdin.txt")
	os.WriteFile(stdin, xxd, 0o644)
	fh, _ := os.Open(stdin)
	old := os.Stdin
	os.Stdin = fh
	out, errs, code = runCmd(t, "decode", "-schemas", schemas, "-")
	os.Stdin = old
	fh.Close()
	if code != 0 || !strings.Contains(out, `Key = "order-1"`) {
		t.Fatalf("xxd on stdin: exit %d: %s\n%s", code, errs, out)
	}

	// A request and its response back to back: paired.
	var both []byte
	for _, n := range []string{"3-Metadata-v13-request", "3-Metadata-v13-response"} {
		b, _ := os.ReadFile(files[n])
		both = append(both, b...)
	}
	pair := filepath.Join(dir, "pair.bin")
	os.WriteFile(pair, both, 0o644)
	out, errs, code = runCmd(t, "decode", "-schemas", schemas, pair)
	if code != 0 || !strings.Contains(out, "-- Metadata v13 response, correlation id 7") {
		t.Fatalf("back to back: exit %d: %s\n%s", code, errs, out)
	}

	// A capture of every example pair, with -o.
	c, _ := kafka.LoadCatalog(schemas)
	vs, _ := c.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	var chunks []capturetest.Chunk
	for _, v := range vs {
		chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Data: v.Response.Bytes})
	}
	var buf bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{MSS: 500, Reorder: 4}); err != nil {
		t.Fatal(err)
	}
	pcap := filepath.Join(dir, "capture.pcap")
	os.WriteFile(pcap, buf.Bytes(), 0o644)
	rep := filepath.Join(dir, "report")
	_, errs, code = runCmd(t, "decode", "-schemas", schemas, "-o", rep, pcap)
	if code != 0 || !strings.Contains(errs, fmt.Sprintf("%d frames (%d decoded)", 2*len(vs), 2*len(vs))) {
		t.Fatalf("capture: exit %d: %s", code, errs)
	}
	html := reportHTML(t, rep)
	for _, want := range []string{"Connection 1: 10.0.0.2:50000 → 10.0.0.1:9092", "Produce v12 request", "Produce v12 response",
		"decompressed with zstd", `<pre class="hex h16"`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(rep, "frames", "c1-1-0-Produce-v12-request-grid.svg")); err != nil {
		t.Error(err)
	}
}

// TestBuildCompression: build -compression writes compressed example batches that decode
// without flags, the records opened, for every codec.
func TestBuildCompression(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	for _, c := range []string{"gzip", "snappy", "snappy-xerial", "lz4", "zstd"} {
		t.Run(c, func(t *testing.T) {
			out := t.TempDir()
			if _, errs, code := runCmd(t, "build", "-schemas", schemas, "-q", "-apis", "Produce", "-format", "bin", "-compression", c, "-out", out); code != 0 {
				t.Fatalf("build: exit %d: %s", code, errs)
			}
			txt, errs, code := runCmd(t, "decode", "-schemas", schemas, filepath.Join(out, "bin", "0-Produce-v12-request.bin"))
			codec := strings.TrimSuffix(c, "-xerial")
			if code != 0 || !strings.Contains(txt, "decompressed ("+codec) || !strings.Contains(txt, `Key = "order-1"`) {
				t.Fatalf("decode: exit %d: %s\n%s", code, errs, txt)
			}
		})
	}
	if _, errs, code := runCmd(t, "build", "-schemas", schemas, "-compression", "lz4-xerial", "-out", t.TempDir()); code != 2 {
		t.Errorf("lz4-xerial: exit %d: %s", code, errs)
	}
}

// TestBuildCompressionRefused: -compression zstd leaves the records of the versions that may
// not carry zstd (KIP-110: Produce v7+, Fetch v10+; no legacy message set) uncompressed, and
// says so once on stderr; -compression gzip gives the legacy versions a compressed wrapper.
func TestBuildCompressionRefused(t *testing.T) {
	schemas := testenv.Release(t, "3.9")
	out := t.TempDir()
	_, errs, code := runCmd(t, "build", "-schemas", schemas, "-apis", "Produce,Fetch", "-format", "bin", "-compression", "zstd", "-out", out)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	const note = "kafkagrid: note: -compression zstd: the records of Produce v0-6 and Fetch v0-9 may not carry zstd (KIP-110: zstd from Produce v7 and Fetch v10, never in a legacy message set): they are written uncompressed\n"
	if strings.Count(errs, "zstd:") != 1 || !strings.Contains(errs, note) {
		t.Errorf("stderr:\n%s\nwant once:\n%s", errs, note)
	}
	for _, tc := range []struct{ file, want, not string }{
		{"0-Produce-v7-request.bin", "decompressed (zstd", ""},
		{"0-Produce-v6-request.bin", "Magic = 2", "zstd"},
		{"0-Produce-v2-request.bin", "Magic = 1", "zstd"},
		{"1-Fetch-v10-response.bin", "decompressed (zstd", ""},
		{"1-Fetch-v9-response.bin", "Magic = 2", "zstd"},
		{"1-Fetch-v1-response.bin", "Magic = 0", "zstd"},
	} {
		txt, errs, code := runCmd(t, "decode", "-schemas", schemas, filepath.Join(out, "bin", tc.file))
		if code != 0 || !strings.Contains(txt, tc.want) || (tc.not != "" && strings.Contains(txt, tc.not)) || !strings.Contains(txt, `Key = "order-1"`) {
			t.Errorf("%s: exit %d: %s\n%s", tc.file, code, errs, txt)
		}
	}
	if _, errs, code := runCmd(t, "build", "-schemas", schemas, "-apis", "Produce,Fetch", "-format", "bin", "-compression", "gzip", "-out", out); code != 0 || strings.Contains(errs, "uncompressed") {
		t.Fatalf("gzip build: exit %d: %s", code, errs)
	}
	txt, errs, code := runCmd(t, "decode", "-schemas", schemas, filepath.Join(out, "bin", "1-Fetch-v1-response.bin"))
	if code != 0 || !strings.Contains(txt, "decompressed (gzip") || !strings.Contains(txt, "Magic = 0") || !strings.Contains(txt, `Key = "order-1"`) {
		t.Errorf("gzip Fetch v1: exit %d: %s\n%s", code, errs, txt)
	}
}

// TestDecodeOtherRelease: a request of an API this release lacks names the releases that have it.
func TestDecodeOtherRelease(t *testing.T) {
	root := listSchemaRoot(t)
	out := t.TempDir()
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", filepath.Join(root, "3.9"), "-out", out, "-format", "bin", "-apis", "LeaderAndIsr", "-versions", "highest"); code != 0 {
		t.Fatal(errs)
	}
	// A 4.0 folder alone: the releases that have the API are named.
	alone := filepath.Join(t.TempDir(), "4.0")
	if err := os.CopyFS(alone, os.DirFS(filepath.Join(root, "4.0"))); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCmd(t, "decode", "-q", filepath.Join(out, "bin", "4-LeaderAndIsr-v7-request.bin"), "-schemas", alone)
	// Every release folder before 4.0 has it; which ones there are depends on the folder.
	if code != 1 || !regexp.MustCompile(`API key 4 \(LeaderAndIsr\) is not in Kafka 4\.0 but is in Kafka (\d+\.\d+, )*3\.6, 3\.9: try -release 3\.9`).MatchString(errs) {
		t.Errorf("exit %d, %s", code, errs)
	}
	// A 4.0 folder beside the others: decoded with the newest other release's that has
	// LeaderAndIsr v7 (3.9 of the shared releases), the folder named.
	other := newestWith(t, root, "4.0", "LeaderAndIsr", 7)
	txt, errs, code := runCmd(t, "decode", "-q", filepath.Join(out, "bin", "4-LeaderAndIsr-v7-request.bin"), "-schemas", filepath.Join(root, "4.0"))
	if code != 0 || !strings.Contains(txt, "LeaderAndIsr is not in Kafka 4.0 but is in Kafka "+other+": decoded with its schemas (-schemas "+filepath.Join(root, other)+")") {
		t.Errorf("exit %d, %s\n%.400s", code, errs, txt)
	}
}

// TestDecodeHugeInput: input too large to decode is refused before it is read (exit 1, an
// error), and a large input that is not Kafka fails without memory in proportion to it.
func TestDecodeHugeInput(t *testing.T) {
	schemas := filepath.Join(listSchemaRoot(t), "4.0")
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.bin")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil { // sparse: takes no disk
		t.Fatal(err)
	}
	f.Close()
	_, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, huge)
	if code != 1 || !strings.Contains(errs, "more than decode reads of anything but a capture (256 MiB)") {
		t.Errorf("4 GiB file: exit %d, %s", code, errs)
	}
	// 64 MiB of zeros (16 MiB with -short, the race detector's run, which multiplies memory):
	// beyond what decoding a 1 KiB file allocates (loading the schemas), the decoder may
	// allocate at most 3 times what it read (6 under the race detector, whose sync.Pool drops
	// a quarter of what is put back).
	size, times := 64<<20, uint64(3)
	if raceEnabled {
		times = 6
	}
	if testing.Short() {
		size = 16 << 20
	}
	allocated := func(n int) (uint64, string, int) {
		file := filepath.Join(dir, fmt.Sprintf("zeros-%d.bin", n))
		if err := os.WriteFile(file, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, file)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, errs, code
	}
	base, _, _ := allocated(1 << 10)
	grew, errs, code := allocated(size)
	if code != 1 || errs == "" {
		t.Errorf("%d MiB of zeros: exit %d, %s", size>>20, code, errs)
	}
	if grew > base+times*uint64(size) {
		t.Errorf("decoding %d MiB of zeros allocated %d MiB (a 1 KiB file: %d MiB)", size>>20, grew>>20, base>>20)
	} else {
		t.Logf("%d MiB of zeros: %d MiB allocated (a 1 KiB file: %d MiB), %.100s", size>>20, grew>>20, base>>20, errs)
	}
}

// TestDecodeMaxFields: a frame of more fields than -max-fields stops where the limit is
// reached (exit 1, the error names the field path and offset), and -max-fields must be positive.
func TestDecodeMaxFields(t *testing.T) {
	schemas := filepath.Join(listSchemaRoot(t), "4.0")
	// An ApiVersions v0 response of 10,000 elements: 40,000 tree nodes.
	n := 10_000
	b := binary.BigEndian.AppendUint32(nil, uint32(4+2+4+6*n))
	b = binary.BigEndian.AppendUint32(b, 7)
	b = binary.BigEndian.AppendUint16(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for range n {
		b = append(b, 0, 18, 0, 0, 0, 3)
	}
	file := filepath.Join(t.TempDir(), "av.bin")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"decode", "-q", "-schemas", schemas, "-api", "ApiVersions", "-version", "0", file}
	if out, errs, code := runCmd(t, args...); code != 0 || strings.Count(out, "\n") < 40_000 {
		t.Fatalf("exit %d, %d lines, %s", code, strings.Count(out, "\n"), errs)
	}
	out, errs, code := runCmd(t, append(args[:1:1], append([]string{"-max-fields", "1000"}, args[1:]...)...)...)
	if code != 1 || !strings.Contains(errs, "ApiKeys: offset 14") || !strings.Contains(errs, "too many fields: the tree has as many nodes as the limit allows") {
		t.Errorf("-max-fields 1000: exit %d, %s", code, errs)
	}
	if !strings.Contains(out, "note: decoding stopped at the limit of 1000 fields (tree nodes) for the whole input (kafkagrid decode -max-fields)") {
		t.Errorf("-max-fields 1000: no note in\n%.300s", out)
	}
	if lines := strings.Count(out, "\n"); lines < 950 || lines > 1010 {
		t.Errorf("-max-fields 1000: %d lines of tree", lines)
	}
	if _, errs, code := runCmd(t, append(args[:1:1], append([]string{"-max-fields", "0"}, args[1:]...)...)...); code != 2 {
		t.Errorf("-max-fields 0: exit %d, %s", code, errs)
	}
}

// TestDecodeCaptureStreamed: decode reads a capture as it streams: the JSON is a line for each
// exchange (compact) and the summary, the text the frames then the notes, with a per-frame
// field limit, so that a capture whose frames have more fields together than -max-fields
// decodes whole.
func TestDecodeCaptureStreamed(t *testing.T) {
	schemas := filepath.Join(listSchemaRoot(t), "4.0")
	c, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	vs, _ := c.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	var chunks []capturetest.Chunk
	most := 0
	for round := range 3 {
		for i, v := range vs {
			chunks = append(chunks, capturetest.Chunk{Conn: (i + round) % 2, FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Conn: (i + round) % 2, Data: v.Response.Bytes})
			most = max(most, v.Request.Nodes, v.Response.Nodes)
		}
	}
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")},
		{Client: netip.MustParseAddrPort("10.0.0.3:50001"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{MSS: 300, Reorder: 5, Retransmit: 7}); err != nil {
		t.Fatal(err)
	}
	pcap := filepath.Join(t.TempDir(), "c.pcap")
	os.WriteFile(pcap, buf.Bytes(), 0o644)
	limit := fmt.Sprint(most)
	out, errs, code := runCmd(t, "decode", "-q", "-format", "json", "-max-fields", limit, "-schemas", schemas, pcap)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(chunks)/2+1 {
		t.Fatalf("%d lines, want %d exchanges and the summary", len(lines), len(chunks)/2)
	}
	for _, l := range lines[:len(lines)-1] {
		var e struct {
			Connection        int
			Client            string
			Request, Response *struct{ API string }
			Errors            []string
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Connection < 1 || e.Request == nil || e.Response == nil || e.Request.API != e.Response.API || e.Errors != nil {
			t.Fatalf("%v: %.200s", err, l)
		}
	}
	var sum struct { // decode's summary line (package capture/decode)
		Kind            string
		Frames, Decoded int
		Conns           []struct{ ID int } `json:"connections"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Kind != "pcap" || sum.Frames != len(chunks) || sum.Decoded != sum.Frames || len(sum.Conns) != 2 {
		t.Errorf("summary %v: %+v", err, sum)
	}
	txt, errs, code := runCmd(t, "decode", "-q", "-max-fields", limit, "-schemas", schemas, pcap)
	if code != 0 || strings.Count(txt, "\n-- ") != len(chunks) || !strings.Contains(txt, "== connection 2: 10.0.0.3:50001 → 10.0.0.1:9092") ||
		!strings.Contains(txt, "note: connection 1: 10.0.0.1:9092 → 10.0.0.2:50000: ") {
		t.Errorf("text: exit %d, %d frames: %s\n%.500s", code, strings.Count(txt, "\n-- "), errs, txt)
	}
	ind, _, _ := runCmd(t, "decode", "-q", "-format", "json", "-indent", "-max-fields", limit, "-schemas", schemas, pcap)
	dec := json.NewDecoder(strings.NewReader(ind))
	n := 0
	for ; dec.More(); n++ {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if n != len(lines) || !strings.Contains(ind, "\n  \"request\": {\n    \"api\": ") {
		t.Errorf("-indent: %d values, want %d: %.300s", n, len(lines), ind)
	}
}

// TestDecodeSaslTokens: decode prints the bare SASL tokens after a SaslHandshake v0 as tokens,
// in text and JSON, and the frames after them as usual.
func TestDecodeSaslTokens(t *testing.T) {
	schemas := filepath.Join(listSchemaRoot(t), "3.9")
	cat, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(name string, resp bool, corr int32, body kafka.Values) []byte {
		api, _ := cat.Lookup(name)
		f, err := cat.Encode(kafka.Message{API: api, Response: resp, Version: 0, CorrelationID: corr, ClientID: "sarama", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f.Bytes
	}
	chunks := []capturetest.Chunk{
		{FromClient: true, Data: enc("SaslHandshake", false, 2, kafka.Values{"Mechanism": "PLAIN"})},
		{Data: enc("SaslHandshake", true, 2, kafka.Values{"ErrorCode": int64(0), "Mechanisms": []any{"PLAIN"}})},
		{FromClient: true, Data: append(binary.BigEndian.AppendUint32(nil, 13), "\x00alice\x00s3cret"...)},
		{Data: binary.BigEndian.AppendUint32(nil, 0)},
		{FromClient: true, Data: enc("Metadata", false, 9, kafka.Values{"Topics": []any{}})},
		{Data: enc("Metadata", true, 9, kafka.Values{})},
	}
	var buf bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{}); err != nil {
		t.Fatal(err)
	}
	pcap := filepath.Join(t.TempDir(), "sasl.pcap")
	if err := os.WriteFile(pcap, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, pcap)
	for _, want := range []string{"-- SASL token from the client, 17 bytes", `token = "\x00alice\x00******"`,
		"note: secrets redacted: 1 (", "the SASL token at offset 27: the SASL PLAIN password (6 bytes) redacted",
		"-- SASL token from the broker, 4 bytes", "size = 0 bytes", "-- Metadata v0 response, correlation id 9"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q: %s\n%s", code, want, errs, out)
		}
	}
	out, _, _ = runCmd(t, "decode", "-q", "-format", "json", "-schemas", schemas, pcap)
	if strings.Contains(out, "s3cret") || strings.Contains(out, "733363726574") {
		t.Errorf("the password is printed:\n%s", out)
	}
	if !strings.Contains(out, `"requestToken":"00616c696365002a2a2a2a2a2a"`) || !strings.Contains(out, `"responseToken":""`) {
		t.Errorf("JSON lacks the tokens:\n%s", out)
	}
}
