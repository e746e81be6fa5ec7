package kafka

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestTexts checks each arena formatter against the plain strconv/fmt formatting it stands
// for, starting from an empty arena, a nearly full one and a roomy one.
func TestTexts(t *testing.T) {
	long := bytes.Repeat([]byte{0xab}, 40)
	uuid := UUID{0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1}
	api := &API{Name: "Produce"}
	tests := []struct {
		name string
		got  func(*texts) string
		want string
	}{
		{"cat", func(t *texts) string { return t.cat("Topics", "[0]", "#tags") }, "Topics[0]#tags"},
		{"cat empty", func(t *texts) string { return t.cat("", "") }, ""},
		{"join top", func(t *texts) string { return t.join("", "Topics", "") }, "Topics"},
		{"join top suffix", func(t *texts) string { return t.join("", "Topics", sfxLength) }, "Topics#length"},
		{"join nested", func(t *texts) string { return t.join("Topics[0]", "Name", sfxLength) }, "Topics[0].Name#length"},
		{"index", func(t *texts) string { return t.index("Records", 12, "") }, "Records[12]"},
		{"index suffix", func(t *texts) string { return t.index("Records", 0, sfxTags) }, "Records[0]#tags"},
		{"int small", func(t *texts) string { return t.int(42) }, "42"},
		{"int large", func(t *texts) string { return t.int(4000) }, "4000"},
		{"int negative", func(t *texts) string { return t.int(-1) }, "-1"},
		{"int min", func(t *texts) string { return t.int(math.MinInt64) }, strconv.FormatInt(math.MinInt64, 10)},
		{"intSuffix", func(t *texts) string { return t.intSuffix(3, " elements") }, "3 elements"},
		{"quote", func(t *texts) string { return t.quote("orders") }, `"orders"`},
		{"quote escapes", func(t *texts) string { return t.quote("a\"b\n\xff") }, strconv.Quote("a\"b\n\xff")},
		{"quoteBytes", func(t *texts) string { return t.quoteBytes([]byte("käse")) }, strconv.Quote("käse")},
		{"quote empty", func(t *texts) string { return t.quote("") }, `""`},
		{"quote ASCII edges", func(t *texts) string { return t.quote(" ~!#[]") }, `" ~!#[]"`},
		{"quote backslash", func(t *texts) string { return t.quote(`a\b`) }, strconv.Quote(`a\b`)},
		{"quote control", func(t *texts) string { return t.quote("a\x7fb\x1f") }, strconv.Quote("a\x7fb\x1f")},
		{"hex empty", func(t *texts) string { return t.hex(nil) }, "0x (empty)"},
		{"hex", func(t *texts) string { return t.hex([]byte{1, 0xfe}) }, "0x01fe"},
		{"hex long", func(t *texts) string { return t.hex(long) },
			fmt.Sprintf("0x%s… (%d bytes)", hex.EncodeToString(long[:32]), len(long))},
		{"hex text", func(t *texts) string { return t.hex([]byte("\x00alice\x00secret")) }, `0x00616c69636500736563726574 "\0alice\0secret"`},
		{"hex text escapes", func(t *texts) string { return t.hex([]byte("a\"b\\c\x01")) }, `0x6122625c6301 "a\"b\\c\x01"`},
		{"hex mostly binary", func(t *texts) string { return t.hex([]byte{'a', 'b', 'c', 1, 2}) }, "0x6162630102"},
		{"ipv4 address", func(t *texts) string { return t.withAddress("0xc000020a", "ClientHostAddress", []byte{192, 0, 2, 10}) }, "0xc000020a (192.0.2.10)"},
		{"ipv6 address", func(t *texts) string {
			return t.withAddress("0x…", "ClientHostAddress", []byte{0x20, 1, 0xd, 0xb8, 15: 1})
		}, "0x… (2001:db8::1)"},
		{"not an address", func(t *texts) string { return t.withAddress("0xc000020a", "Metrics", []byte{192, 0, 2, 10}) }, "0xc000020a"},
		{"address of another length", func(t *texts) string { return t.withAddress("0x0102", "Address", []byte{1, 2}) }, "0x0102"},
		{"hex32", func(t *texts) string { return t.hex32(0x0000beef) }, "0x0000beef"},
		{"uuid", func(t *texts) string { return t.uuid(uuid) }, uuid.String()},
		{"float", func(t *texts) string { return t.float(0.5) }, "0.5"},
		{"float whole", func(t *texts) string { return t.float(1048576) }, "1048576"},
		{"float huge", func(t *texts) string { return t.float(1e300) }, "1e+300"},
		{"float tiny", func(t *texts) string { return t.float(-1e-9) }, "-1e-09"},
		{"float zero", func(t *texts) string { return t.float(0) }, "0"},
		{"version", func(t *texts) string { return t.version("ProduceRequest", 12) }, "ProduceRequest v12"},
		{"intAfter", func(t *texts) string { return t.intAfter("Topics[0]", "#tag", 7) }, "Topics[0]#tag7"},
		{"message request", func(t *texts) string { return t.message(api, false, 12) }, messageName(api, false, 12)},
		{"message response", func(t *texts) string { return t.message(api, true, 3) }, "Produce v3 response"},
		{"message no api", func(t *texts) string { return t.message(nil, true, 3) }, "response"},
		{"size", func(t *texts) string { return t.sizeText(sizeInt32, 150) }, "150 bytes"},
		{"size one", func(t *texts) string { return t.sizeText(sizeUvarint, 1) }, "1 byte"},
		{"size compact", func(t *texts) string { return t.sizeText(sizeCompact, 80) }, "81 → 80 bytes"},
		{"tag", func(t *texts) string { return t.tagText(3, "SupportedFeatures") }, "3 → SupportedFeatures"},
	}
	arenas := []struct {
		name string
		make func() *texts
	}{
		{"empty", func() *texts { return &texts{} }},
		{"full", func() *texts { t := &texts{}; t.Set(make([]byte, 5, 6)); return t }},
		{"roomy", func() *texts { t := &texts{}; t.Set(make([]byte, 100, 4096)); return t }},
	}
	for _, a := range arenas {
		for _, tt := range tests {
			t.Run(a.name+"/"+tt.name, func(t *testing.T) {
				ar := a.make()
				if got := tt.got(ar); got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// TestTextsSinceMoved checks that a string appended past the room reserved for it, so that
// append moved the arena to a new block, is still whole.
func TestTextsSinceMoved(t *testing.T) {
	ar := &texts{}
	ar.Set(make([]byte, 0, 4))
	first := ar.cat("ab")
	start := ar.Len()
	ar.Set(append(ar.Buf(), "cdefghij"...)) // past the capacity: a new block
	if got := ar.Since(start); got != "cdefghij" {
		t.Errorf("since = %q, want %q", got, "cdefghij")
	}
	if first != "ab" {
		t.Errorf("an earlier string changed: %q", first)
	}
}

// TestArenaStringsStay checks that the strings of frames made early by an Encoder or a
// Decoder do not change while the same Encoder or Decoder makes many more (the arena only
// appends): the text of every frame is the same after all were made as right after it was.
func TestArenaStringsStay(t *testing.T) {
	c := testCatalog(t, "4.0")
	fs := frames(testVectors(t, "4.0"))
	text := func(f *Frame) string {
		var b strings.Builder
		if err := WriteText(&b, f.Root); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	enc, dec := c.NewEncoder(), c.NewDecoder()
	var encoded, decoded []*Frame
	var encText, decText, decValues []string
	for range 3 { // several rounds: far more text than one arena block holds
		for _, f := range fs {
			e, err := enc.Encode(Message{API: f.API, Response: f.Response, Version: f.Version,
				CorrelationID: f.CorrelationID, ClientID: exampleClientID, Body: f.Body})
			if err != nil {
				t.Fatal(err)
			}
			encoded, encText = append(encoded, e), append(encText, text(e))
			d, err := dec.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version})
			if err != nil {
				t.Fatal(err)
			}
			decoded, decText = append(decoded, d), append(decText, text(d))
			decValues = append(decValues, fmt.Sprint(d.Header, d.Body)) // decoded strings share the arena
		}
	}
	for i := range encoded {
		if got := text(encoded[i]); got != encText[i] {
			t.Fatalf("encoded frame %d (%s) changed after later frames:\n%s", i, encoded[i].BaseName(), got)
		}
		if got := text(decoded[i]); got != decText[i] {
			t.Fatalf("decoded frame %d (%s) changed after later frames:\n%s", i, decoded[i].BaseName(), got)
		}
		if got := fmt.Sprint(decoded[i].Header, decoded[i].Body); got != decValues[i] {
			t.Fatalf("values of decoded frame %d (%s) changed after later frames:\n%s", i, decoded[i].BaseName(), got)
		}
		if encText[i] != decText[i] {
			t.Fatalf("frame %d (%s): decoding gives another tree than encoding", i, encoded[i].BaseName())
		}
	}
}

// FuzzQuote checks the arena's quote, with its fast paths for printable ASCII, against
// strconv.Quote.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "orders", "a\"b", `a\b`, "\x7f", "käse", "\xff", "tab\there", `{"order":0,"item":"w\\x"}`, `"`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var ar texts
		if got, want := ar.quote(s), strconv.Quote(s); got != want {
			t.Errorf("quote(%q) = %s, want %s", s, got, want)
		}
	})
}
