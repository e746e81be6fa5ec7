package kafka

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// UUID is a Kafka uuid: 16 bytes on the wire.
type UUID [16]byte

// String writes the uuid in the 8-4-4-4-12 hex form.
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// Base64 writes the uuid as Kafka's tools print it (URL-safe base64 without padding).
func (u UUID) Base64() string { return base64.RawURLEncoding.EncodeToString(u[:]) }

// ParseUUID reads a uuid in the 8-4-4-4-12 hex form or in Kafka's 22-character base64 form.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	if len(s) == 22 {
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err == nil && len(b) == 16 {
			copy(u[:], b)
			return u, nil
		}
	}
	h := strings.ReplaceAll(s, "-", "")
	if len(s) != 36 || len(h) != 32 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, fmt.Errorf("kafka: uuid %q: want 8-4-4-4-12 hex or 22 base64 characters", s)
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, fmt.Errorf("kafka: uuid %q: %w", s, err)
	}
	return u, nil
}

// defaultValue is a field's value when nothing else is given: the schema's default, else the
// zero value of its type (an empty array, an empty string).
func defaultValue(f *schemas.Field, v int16) any {
	nullDefault := f.HasDefault && f.Default == "null"
	if nullDefault && f.NullableIn(v) {
		return nil
	}
	if f.Type.Array {
		return []any{}
	}
	switch recordsPrim(f) {
	case schemas.StructType:
		return Values{}
	case schemas.Records:
		if f.NullableIn(v) {
			return nil
		}
		return []*RecordBatch{}
	}
	if f.HasDefault && !nullDefault {
		if x, err := parseDefault(f.Type.Prim, f.Default); err == nil {
			return x
		}
	}
	return zeroValue(f.Type.Prim)
}

func zeroValue(p schemas.Prim) any {
	switch p {
	case schemas.Bool:
		return false
	case schemas.Float64:
		return float64(0)
	case schemas.String:
		return ""
	case schemas.Bytes:
		return []byte{}
	case schemas.UUID:
		return UUID{}
	}
	return int64(0)
}

func parseDefault(p schemas.Prim, s string) (any, error) {
	switch p {
	case schemas.Bool:
		return strconv.ParseBool(s)
	case schemas.Int8, schemas.Int16, schemas.Uint16, schemas.Int32, schemas.Int64:
		x, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, err
		}
		if !intFits(p, x) {
			return nil, fmt.Errorf("%d out of range", x)
		}
		return x, nil
	case schemas.Float64:
		return strconv.ParseFloat(s, 64)
	case schemas.String:
		return s, nil
	case schemas.UUID:
		return ParseUUID(s)
	}
	return nil, fmt.Errorf("no default for this type")
}

// isDefault reports whether x equals the field's default (then a tagged field is not written).
func isDefault(f *schemas.Field, v int16, x any) bool {
	def := defaultValue(f, v)
	if vals, ok := x.(Values); ok && def != nil && !f.Type.Array && f.Type.Prim == schemas.StructType {
		// A struct is at its default when each of its fields is.
		for _, g := range f.Struct.Fields {
			if y, ok := vals[g.Name]; ok && g.PresentIn(v) && !isDefault(g, v, y) {
				return false
			}
		}
		return true
	}
	return equalValue(def, x)
}

// equalValue compares two values of the Values model.
func equalValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case []byte:
		bb, ok := b.([]byte)
		return ok && bytes.Equal(a, bb)
	case []any:
		bb, ok := b.([]any)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !equalValue(a[i], bb[i]) {
				return false
			}
		}
		return true
	case Values:
		bb, ok := b.(Values)
		if !ok || len(a) != len(bb) {
			return false
		}
		for key, x := range a {
			y, ok := bb[key]
			if !ok || !equalValue(x, y) {
				return false
			}
		}
		return true
	case []*RecordBatch:
		bb, ok := b.([]*RecordBatch)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !equalBatch(a[i], bb[i]) {
				return false
			}
		}
		return true
	case MessageSet:
		bb, ok := b.(MessageSet)
		return ok && equalMessageSet(a, bb)
	case Records:
		bb, ok := b.(Records)
		return ok && equalRecords(a, bb)
	case int64, bool, float64, string, UUID:
		return a == b
	}
	return false
}

// equalRecords compares two Records: each batch, message or partial entry in turn.
func equalRecords(a, b Records) bool {
	if len(a) != len(b) {
		return false
	}
	for i, x := range a {
		y := b[i]
		switch {
		case x.Batch != nil:
			if y.Batch == nil || !equalBatch(x.Batch, y.Batch) {
				return false
			}
		case x.Message != nil:
			if y.Message == nil || !equalMessageSet(MessageSet{*x.Message}, MessageSet{*y.Message}) {
				return false
			}
		default:
			if y.Batch != nil || y.Message != nil || x.PartialSize != y.PartialSize || !bytes.Equal(x.Partial, y.Partial) {
				return false
			}
		}
	}
	return true
}

func equalBatch(a, b *RecordBatch) bool {
	if a.BaseOffset != b.BaseOffset || a.PartitionLeaderEpoch != b.PartitionLeaderEpoch || a.Attributes != b.Attributes ||
		a.LastOffsetDelta != b.LastOffsetDelta || a.BaseTimestamp != b.BaseTimestamp || a.MaxTimestamp != b.MaxTimestamp ||
		a.ProducerID != b.ProducerID || a.ProducerEpoch != b.ProducerEpoch || a.BaseSequence != b.BaseSequence ||
		len(a.Records) != len(b.Records) {
		return false
	}
	for i := range a.Records {
		x, y := a.Records[i], b.Records[i]
		if x.Attributes != y.Attributes || x.TimestampDelta != y.TimestampDelta || x.OffsetDelta != y.OffsetDelta ||
			!equalNullBytes(x.Key, y.Key) || !equalNullBytes(x.Value, y.Value) || len(x.Headers) != len(y.Headers) {
			return false
		}
		for j := range x.Headers {
			if x.Headers[j].Key != y.Headers[j].Key || !equalNullBytes(x.Headers[j].Value, y.Headers[j].Value) {
				return false
			}
		}
	}
	return true
}

func equalNullBytes(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }
