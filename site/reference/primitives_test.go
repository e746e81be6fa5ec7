package reference

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kbin"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// primitiveBytes returns the bytes fs carry, each byte once, in order: a field not on byte
// boundaries carries the whole bytes it touches, which the fields beside it share.
func primitiveBytes(fs []bytegrid.Field) []byte {
	var out []byte
	next := 0 // the first byte not yet taken
	for _, f := range fs {
		first := f.Offset / 8
		for k := range f.Bytes {
			if first+k >= next {
				out = append(out, f.Bytes[k])
				next = first + k + 1
			}
		}
	}
	return out
}

// TestPrimitives checks the primitive types' examples against franz-go's kbin, an encoder we
// did not write: every table row of the varints and the compact and nullable forms, and the
// bytes under each grid; and that the record batch is the Produce example's, byte for byte.
func TestPrimitives(t *testing.T) {
	cat := catalog(t, "4.0")
	b := &builder{cat: cat}
	ps, err := b.primitives()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]primitive{}
	for _, p := range ps {
		ids[p.ID] = p
		if p.Grid.Drawing == nil || p.About == "" || p.Caption == "" {
			t.Errorf("%s: no grid, text or caption", p.ID)
		}
	}
	for _, id := range []string{"uvarint", "zigzag", "varint", "varlong", "compact", "nullable", "uuid", "records"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("no %s section", id)
		}
	}
	// lastHex is the hex at the end of a row's encoding: "zigzag 299: ab 02" → ab 02.
	lastHex := func(s string) []byte {
		if i := strings.LastIndex(s, ": "); i >= 0 {
			s = s[i+2:]
		}
		var hx []byte
		for _, f := range strings.Fields(s) {
			c, err := hex.DecodeString(f)
			if err != nil || len(c) != 1 {
				break
			}
			hx = append(hx, c[0])
		}
		return hx
	}
	num := func(s string) int64 {
		f := strings.Fields(s)[0]
		n, err := strconv.ParseInt(strings.ReplaceAll(f, ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("row value %q: %v", s, err)
		}
		return n
	}
	for _, r := range ids["uvarint"].Rows {
		if got, want := lastHex(r[1]), kbin.AppendUvarint(nil, uint32(num(r[0]))); !bytes.Equal(got, want) {
			t.Errorf("uvarint %s: % x, kbin % x", r[0], got, want)
		}
	}
	for _, id := range []string{"zigzag", "varint"} {
		for _, r := range ids[id].Rows {
			if got, want := lastHex(r[1]), kbin.AppendVarint(nil, int32(num(r[0]))); !bytes.Equal(got, want) {
				t.Errorf("%s %s: % x, kbin % x", id, r[0], got, want)
			}
		}
	}
	for _, r := range ids["varlong"].Rows {
		if got, want := lastHex(r[1]), kbin.AppendVarlong(nil, num(r[0])); !bytes.Equal(got, want) {
			t.Errorf("varlong %s: % x, kbin % x", r[0], got, want)
		}
	}
	orders := "orders"
	for i, want := range [][]byte{kbin.AppendCompactString(nil, orders), kbin.AppendCompactString(nil, ""), kbin.AppendCompactNullableString(nil, nil), kbin.AppendCompactArrayLen(nil, 1), kbin.AppendString(nil, orders)} {
		if got := lastHex(ids["compact"].Rows[i][1]); !bytes.Equal(got, want) {
			t.Errorf("compact %s: % x, kbin % x", ids["compact"].Rows[i][0], got, want)
		}
	}
	for i, want := range [][]byte{kbin.AppendNullableString(nil, nil), kbin.AppendNullableBytes(nil, nil), kbin.AppendCompactNullableString(nil, nil), kbin.AppendInt8(nil, -1)} {
		if got := lastHex(strings.SplitN(ids["nullable"].Rows[i][1], " (", 2)[0]); !bytes.Equal(got, want) {
			t.Errorf("nullable %s: % x, kbin % x", ids["nullable"].Rows[i][0], got, want)
		}
	}
	// The bytes under each grid: what its fields carry, in order.
	want := map[string][]byte{
		"uvarint":  kbin.AppendUvarint(nil, 300),
		"varint":   kbin.AppendVarint(nil, -150),
		"varlong":  kbin.AppendVarlong(nil, 86_400_000),
		"compact":  append(append(append(kbin.AppendCompactString(nil, orders), kbin.AppendCompactString(nil, "")...), kbin.AppendCompactNullableString(nil, nil)...), kbin.AppendInt32(kbin.AppendCompactArrayLen(nil, 1), 5)...),
		"nullable": append(append(append(append(append(kbin.AppendNullableString(nil, nil), kbin.AppendCompactNullableString(nil, nil)...), kbin.AppendInt8(nil, -1)...), kbin.AppendNullableBytes(nil, nil)...), kbin.AppendArrayLen(nil, -1)...), kbin.AppendInt32(kbin.AppendInt8(nil, 1), 2)...),
	}
	id, _ := kafka.ParseUUID("00000000-0000-4000-8000-000000000001")
	want["uuid"] = kbin.AppendUuid(nil, id)
	for name, w := range want {
		if got := primitiveBytes(ids[name].fields); !bytes.Equal(got, w) {
			t.Errorf("%s grid: % x, kbin % x", name, got, w)
		}
	}
	// The record batch is cut from the Produce example's frame at its offset.
	p := ids["records"]
	var fr *kafka.Frame
	vecs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vecs {
		if v.API.Name == "Produce" {
			fr = v.Request
		}
	}
	batch := primitiveBytes(p.fields)
	if len(batch) < 61 || !bytes.Contains(fr.Bytes, batch) {
		t.Errorf("record batch: %d bytes, not the Produce example's", len(batch))
	}
}
