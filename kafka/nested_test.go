package kafka

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestEmbedded: the codec reads the frame an Envelope carries once, encoding and decoding
// alike: its nodes sit under the bytes field's content leaf (kafka.Embedded), at the outer
// frame's offsets (the leaves tile the content exactly) with paths under the field's; a response
// is read as the answer to its request's nested frame, and without that request it is not.
func TestEmbedded(t *testing.T) {
	c, err := LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var env Vector
	for _, v := range vs {
		if v.API.Key == KeyEnvelope {
			env = v
		}
	}
	if env.API == nil {
		t.Fatal("no Envelope in 4.0")
	}
	decReq, err := c.Decode(env.Request.Bytes, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	decResp, err := c.DecodeResponse(env.Response.Bytes, decReq, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lone, err := c.Decode(env.Response.Bytes, DecodeOptions{Response: true, API: env.API, Version: env.Response.Version})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		f     *Frame
		field string
		label string // "" when not read as a frame
		note  string
	}{
		{"encoded-request", env.Request, "RequestData", "CreateTopics v7 request, embedded", ""},
		{"encoded-response", env.Response, "ResponseData", "CreateTopics v7 response, embedded", ""},
		{"decoded-request", decReq, "RequestData", "CreateTopics v7 request, embedded", ""},
		{"decoded-response", decResp, "ResponseData", "CreateTopics v7 response, embedded", ""},
		{"response-without-request", lone, "ResponseData", "", "come from the request it answers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			field, data := bytesField(tc.f, tc.field)
			if data == nil {
				t.Fatalf("no %s content", tc.field)
			}
			e, ok := data.Raw.(*Embedded)
			if !ok {
				t.Fatalf("%s content Raw is %T, want *Embedded", tc.field, data.Raw)
			}
			if e.Label != tc.label || !strings.Contains(e.Note, tc.note) || (tc.label == "") != (e.Root == nil) {
				t.Fatalf("label %q note %q root %v", e.Label, e.Note, e.Root != nil)
			}
			if e.Root == nil {
				if e.Frame != nil {
					t.Error("a frame without its re-based tree")
				}
				return
			}
			// The re-based leaves tile the content: from its first byte to its last.
			at := data.Offset
			for _, l := range e.Root.Leaves() {
				if l.Offset != at {
					t.Fatalf("leaf %s at %d, want %d", l.Path, l.Offset, at)
				}
				if !strings.HasPrefix(l.Path, field.Path+".") {
					t.Errorf("leaf path %q not under %s", l.Path, field.Path)
				}
				at += l.Length
			}
			if at != data.Offset+data.Length {
				t.Errorf("the leaves end at %d, the content at %d", at, data.Offset+data.Length)
			}
			// The nested frame is the frame the bytes hold, with its size put back.
			if !bytes.Equal(e.Frame.Bytes[4:], tc.f.Bytes[data.Offset:data.Offset+data.Length]) {
				t.Error("the nested frame's bytes are not the content's")
			}
			if n := tc.f.Root.Find(field.Path + ".header.RequestApiKey"); tc.f == env.Request && n != nil {
				t.Error("the nested nodes are in the outer tree too")
			}
		})
	}
	// The nested tree's nodes count with the frame's, encoded or decoded.
	if decReq.Nodes != env.Request.Nodes || decResp.Nodes != env.Response.Nodes || lone.Nodes >= decResp.Nodes {
		t.Errorf("nodes: request %d decoded, %d encoded; response %d, %d; without its request %d",
			decReq.Nodes, env.Request.Nodes, decResp.Nodes, env.Response.Nodes, lone.Nodes)
	}
	// A budget too small for the nested frame leaves it unread, with the reason.
	small, _ := c.Decode(env.Request.Bytes, DecodeOptions{MaxNodes: lone.Nodes})
	if _, data := bytesField(small, "RequestData"); data == nil {
		t.Error("no RequestData in the small-budget frame")
	} else if e, _ := data.Raw.(*Embedded); e == nil || e.Root != nil || !strings.Contains(e.Note, "too many fields") {
		t.Errorf("small budget: %+v", e)
	}
}

// TestEmbeddedEnvelope: an Envelope inside an Envelope (Kafka never forwards one) is decoded as
// the nested frame, and its own data stays bytes: one level, whatever the input.
func TestEmbeddedEnvelope(t *testing.T) {
	c, err := LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var env *Frame
	for _, v := range vs {
		if v.API.Key == KeyEnvelope {
			env = v.Request
		}
	}
	body := Values{}
	for k, v := range env.Body {
		body[k] = v
	}
	body["RequestData"] = env.Bytes[4:]
	outer, err := c.Encode(Message{API: env.API, Version: env.Version, CorrelationID: 1, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	_, data := bytesField(outer, "RequestData")
	e, _ := data.Raw.(*Embedded)
	if e == nil || e.Frame == nil || e.Label != "Envelope v0 request, embedded" {
		t.Fatalf("outer: %+v", e)
	}
	if _, inner := bytesField(e.Frame, "RequestData"); inner == nil || inner.Raw != nil {
		t.Errorf("the nested Envelope's RequestData was read as a frame too")
	}
}

// TestRedactEmbedded: a forwarded AlterUserScramCredentials keeps no salted password, in the
// Envelope's bytes, its RequestData value, the nested frame or its re-based tree.
func TestRedactEmbedded(t *testing.T) {
	c, err := LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	scram, _ := c.Lookup("AlterUserScramCredentials")
	env, _ := c.Lookup("Envelope")
	secret := []byte("SECRETSECRETSECRET")
	body, err := c.ExampleBody(scram, false, scram.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	body["Upsertions"] = []any{Values{"Name": "alice", "Mechanism": int64(1), "Iterations": int64(4096), "Salt": []byte("salt"), "SaltedPassword": secret}}
	inner, err := c.Encode(Message{API: scram, Version: scram.Version, CorrelationID: 3, ClientID: "broker-1", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	eb, err := c.ExampleBody(env, false, env.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, decoded := range []bool{false, true} {
		// Redact changes the body it finds in the frame: each frame gets its own.
		fb := Values{}
		for k, v := range eb {
			fb[k] = v
		}
		fb["RequestData"] = inner.Bytes[4:]
		f, err := c.Encode(Message{API: env, Version: env.Version, CorrelationID: 4, Body: fb})
		if err != nil {
			t.Fatal(err)
		}
		orig := f.Bytes
		if decoded {
			if f, err = c.Decode(bytes.Clone(f.Bytes), DecodeOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		notes := Redact(f)
		if len(notes) != 1 || !strings.Contains(notes[0], "Envelope v0 RequestData: AlterUserScramCredentials") || !strings.Contains(notes[0], "salted password") {
			t.Errorf("notes %q", notes)
		}
		_, data := bytesField(f, "RequestData")
		e := data.Raw.(*Embedded)
		hex := func(b []byte) string { var t texts; return t.hex(b) }
		for what, b := range map[string][]byte{"bytes": f.Bytes, "nested bytes": e.Frame.Bytes, "body": f.Body["RequestData"].([]byte)} {
			if bytes.Contains(b, secret) {
				t.Errorf("decoded %v: the secret is in the %s", decoded, what)
			}
		}
		for _, root := range []*Node{f.Root, e.Root, e.Frame.Root} {
			root.Walk(func(n *Node) bool {
				if strings.Contains(n.Value, hex(secret)) || strings.Contains(n.Value, string(secret)) {
					t.Errorf("decoded %v: node %s shows the secret: %s", decoded, n.Path, n.Value)
				}
				return true
			})
		}
		if len(f.Bytes) != len(orig) || !bytes.Contains(orig, secret) {
			t.Errorf("decoded %v: the frame's length changed (%d, %d), or the bytes given were redacted in place (%v)", decoded, len(f.Bytes), len(orig), bytes.Contains(orig, secret))
		}
	}
}
