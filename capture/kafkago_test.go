package capture

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// recordKeys lists the keys and values of a records field's value in the order of the log:
// batches' records, messages, and the messages inside compressed wrappers.
func recordKeys(v any) (keys, values []string) {
	add := func(k, val []byte) {
		keys, values = append(keys, string(k)), append(values, string(val))
	}
	var message func(m *kafka.LegacyMessage)
	message = func(m *kafka.LegacyMessage) {
		if m.Attributes&7 != 0 {
			for i := range m.Inner {
				message(&m.Inner[i])
			}
			return
		}
		add(m.Key, m.Value)
	}
	batch := func(b *kafka.RecordBatch) {
		for _, r := range b.Records {
			add(r.Key, r.Value)
		}
	}
	switch x := v.(type) {
	case []*kafka.RecordBatch:
		for _, b := range x {
			batch(b)
		}
	case kafka.MessageSet:
		for i := range x {
			message(&x[i])
		}
	case kafka.Records:
		for _, e := range x {
			switch {
			case e.Batch != nil:
				batch(e.Batch)
			case e.Message != nil:
				message(e.Message)
			}
		}
	}
	return keys, values
}

// TestKafkaGoFixtures reads kafka-go's fixtures (testdata/kafka-go): Fetch v10 responses whose
// records change format entry by entry (magic 2 batches, magic 1 messages, compressed or not),
// each as kafka-go's TestMessageFixtures expects, and its two captures, every frame decoded.
func TestKafkaGoFixtures(t *testing.T) {
	cat := testCatalog(t)
	fetch, _ := cat.Lookup("Fetch")
	// kafka-go's table: the file and its messages, by letter.
	letters := map[byte][2]string{
		'a': {"alpha", "aaaaaaaaaa"}, 'b': {"beta", "bbbbbbbbbb"}, 'c': {"gamma", "cccccccccc"}, 'd': {"delta", "dddddddddd"},
		'e': {"epsilon", "eeeeeeeeee"}, 'f': {"zeta", "ffffffffff"}, 'g': {"eta", "gggggggggg"}, 'h': {"theta", "hhhhhhhhhh"},
	}
	for _, tt := range []struct{ file, messages string }{
		{"v2b-v1.hex", "abab"}, {"v2bc-v1c.hex", "abab"}, {"v2bc-v1.hex", "abcd"}, {"v2bc-v1-v1c.hex", "abcdef"},
		{"v1-v1.hex", "abcd"}, {"v1c-v1c.hex", "abcd"}, {"v1c-v1-v1c.hex", "abcdef"}, {"v2-v2.hex", "abcd"},
		{"v2c-v2c.hex", "abcd"}, {"v2c-v2-v2c.hex", "abcdef"},
		{"v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.hex", "ababcdcdefefghghghgh"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", "kafka-go", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			data, err := hex.DecodeString(strings.TrimSpace(string(text)))
			if err != nil {
				t.Fatal(err)
			}
			f, err := cat.Decode(data, kafka.DecodeOptions{Response: true, API: fetch, Version: 10})
			if err != nil {
				t.Fatal(err)
			}
			part := f.Body["Responses"].([]any)[0].(kafka.Values)["Partitions"].([]any)[0].(kafka.Values)
			keys, values := recordKeys(part["Records"])
			if len(keys) != len(tt.messages) {
				t.Fatalf("%d messages %q, kafka-go expects %d", len(keys), keys, len(tt.messages))
			}
			for i := range len(tt.messages) {
				want := letters[tt.messages[i]]
				if keys[i] != want[0] || values[i] != `{"count":0,"filler":"`+want[1]+`"}` {
					t.Errorf("message %d: %q → %q, kafka-go expects %q", i, keys[i], values[i], want)
				}
			}
		})
	}
	for _, file := range []string{"v2b-v1.pcapng", "v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.pcapng"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "kafka-go", file))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(cat, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			if all < 20 || ok != all {
				t.Errorf("%d of %d frames decoded: %q", ok, all, r.Notes)
			}
		})
	}
}
