package capture

import (
	"bytes"
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

// kafkaGoFixtures is kafka-go's TestMessageFixtures table (message_test.go): each fixture's
// base name and its messages, by letter, in the order of the log.
var kafkaGoFixtures = []struct{ name, messages string }{
	{"v2b-v1", "abab"}, {"v2bc-v1c", "abab"}, {"v2bc-v1", "abcd"}, {"v2bc-v1-v1c", "abcdef"},
	{"v1-v1", "abcd"}, {"v1c-v1c", "abcd"}, {"v1c-v1-v1c", "abcdef"}, {"v2-v2", "abcd"},
	{"v2c-v2c", "abcd"}, {"v2c-v2-v2c", "abcdef"},
	{"v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc", "ababcdcdefefghghghgh"},
}

// checkKafkaGoMessages checks the records of a Fetch response's first partition against
// kafka-go's expected messages (by letter: a is alpha → {"count":0,"filler":"aaaaaaaaaa"}).
func checkKafkaGoMessages(t *testing.T, f *kafka.Frame, messages string) {
	t.Helper()
	letters := map[byte][2]string{
		'a': {"alpha", "aaaaaaaaaa"}, 'b': {"beta", "bbbbbbbbbb"}, 'c': {"gamma", "cccccccccc"}, 'd': {"delta", "dddddddddd"},
		'e': {"epsilon", "eeeeeeeeee"}, 'f': {"zeta", "ffffffffff"}, 'g': {"eta", "gggggggggg"}, 'h': {"theta", "hhhhhhhhhh"},
	}
	part := f.Body["Responses"].([]any)[0].(kafka.Values)["Partitions"].([]any)[0].(kafka.Values)
	keys, values := recordKeys(part["Records"])
	if len(keys) != len(messages) {
		t.Fatalf("%d messages %q, kafka-go expects %d", len(keys), keys, len(messages))
	}
	for i := range len(messages) {
		want := letters[messages[i]]
		if keys[i] != want[0] || values[i] != `{"count":0,"filler":"`+want[1]+`"}` {
			t.Errorf("message %d: %q → %q, kafka-go expects %q", i, keys[i], values[i], want)
		}
	}
}

// TestKafkaGoFixtures reads kafka-go's fixtures (testdata/kafka-go): Fetch v10 responses whose
// records change format entry by entry (magic 2 batches, magic 1 messages, compressed or not),
// each as kafka-go's TestMessageFixtures expects; and the capture recorded beside each (Linux
// cooked v2): every frame decoded, and the Fetch response that carried the fixture found in it,
// byte for byte, with the same messages.
func TestKafkaGoFixtures(t *testing.T) {
	cat := testCatalog(t)
	fetch, _ := cat.Lookup("Fetch")
	for _, tt := range kafkaGoFixtures {
		text, err := os.ReadFile(filepath.Join("testdata", "kafka-go", tt.name+".hex"))
		if err != nil {
			t.Fatal(err)
		}
		fixture, err := hex.DecodeString(strings.TrimSpace(string(text)))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tt.name+".hex", func(t *testing.T) {
			f, err := cat.Decode(fixture, kafka.DecodeOptions{Response: true, API: fetch, Version: 10})
			if err != nil {
				t.Fatal(err)
			}
			checkKafkaGoMessages(t, f, tt.messages)
		})
		t.Run(tt.name+".pcapng", func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "kafka-go", tt.name+".pcapng"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(cat, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			if all < 10 || ok != all {
				t.Errorf("%d of %d frames decoded: %q", ok, all, r.Notes)
			}
			var found *Message
			for _, c := range r.Conns {
				for _, e := range c.Exchanges {
					if m := e.Response; m != nil && bytes.Equal(m.Bytes, fixture) {
						found = m
					}
				}
			}
			if found == nil {
				t.Fatalf("no response of the capture is the fixture %s.hex", tt.name)
			}
			if f := found.Frame; f == nil || f.API.Name != "Fetch" || f.Version != 10 || !f.Response {
				t.Fatalf("the fixture's frame read as %+v, not a Fetch v10 response", found.Frame)
			}
			checkKafkaGoMessages(t, found.Frame, tt.messages)
		})
	}
}
