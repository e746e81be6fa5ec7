package capture

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestSaslV0Tokens: after a SaslHandshake v0 the SASL tokens travel bare (KIP-43): a size and
// the mechanism's bytes, no Kafka header, and PLAIN's answer is a size of 0. They are read as
// tokens, paired in order, and the Kafka frames after them decode and pair as usual; before,
// the client's token failed as a request and the server's empty answer ended its stream.
func TestSaslV0Tokens(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "3.9"))
	if err != nil {
		t.Fatal(err)
	}
	enc := func(name string, resp bool, v int16, corr int32, body kafka.Values) []byte {
		t.Helper()
		api, _ := cat.Lookup(name)
		f, err := cat.Encode(kafka.Message{API: api, Response: resp, Version: v, CorrelationID: corr, ClientID: "sarama", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f.Bytes
	}
	token := func(s string) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(s))), s...) }
	metadata := []capturetest.Chunk{
		{FromClient: true, Data: enc("Metadata", false, 1, 9, kafka.Values{"Topics": nil})},
		{Data: enc("Metadata", true, 1, 9, kafka.Values{})},
	}
	for _, tc := range []struct {
		name     string
		mech     string
		exchange []string // client token, server token, …
	}{
		{"PLAIN", "PLAIN", []string{"\x00alice\x00s3cret", ""}},
		{"SCRAM", "SCRAM-SHA-256", []string{"n,,n=alice,r=abc", "r=abcdef,s=c2FsdA==,i=4096", "c=biws,r=abcdef,p=cHJvb2Y=", "v=c2lnbmF0dXJl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := []capturetest.Chunk{
				{FromClient: true, Data: enc("SaslHandshake", false, 0, 2, kafka.Values{"Mechanism": tc.mech})},
				{Data: enc("SaslHandshake", true, 0, 2, kafka.Values{"ErrorCode": int64(0), "Mechanisms": []any{tc.mech}})},
			}
			for i, tok := range tc.exchange {
				chunks = append(chunks, capturetest.Chunk{FromClient: i%2 == 0, Data: token(tok)})
			}
			chunks = append(chunks, metadata...)
			data := pcapOf(t, []capturetest.Endpoints{{Client: client, Server: server}}, chunks, capturetest.Options{})
			r, err := Read(cat, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			if want := 4 + len(tc.exchange); all != want || ok != want {
				t.Fatalf("%d frames, %d read; want %d; notes: %s", all, ok, want, allNotes(r))
			}
			ex := r.Conns[0].Exchanges
			if len(ex) != 2+len(tc.exchange)/2 {
				t.Fatalf("%d exchanges", len(ex))
			}
			for i, e := range ex[1 : len(ex)-1] {
				if !e.Request.Token || e.Response == nil || !e.Response.Token || !strings.HasPrefix(e.Note, "SASL token") {
					t.Errorf("exchange %d: %+v", i+1, e)
					continue
				}
				want := strings.NewReplacer("s3cret", "******", "p=cHJvb2Y=", "p=********").Replace(tc.exchange[2*i]) // secrets redacted
				if got := string(e.Request.Bytes[4:]); got != want {
					t.Errorf("client token %d: %q", i, got)
				}
				if got := string(e.Response.Bytes[4:]); got != tc.exchange[2*i+1] {
					t.Errorf("server token %d: %q", i, got)
				}
			}
			if last := ex[len(ex)-1]; last.Request.Frame == nil || last.Request.Frame.API.Name != "Metadata" || last.Response == nil || last.Response.Err != nil {
				t.Errorf("the Metadata exchange after the tokens: %+v", last)
			}
			if strings.Contains(allNotes(r), "frame size") {
				t.Errorf("notes: %s", allNotes(r))
			}
		})
	}
}
