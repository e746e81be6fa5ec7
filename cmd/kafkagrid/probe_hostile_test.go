package main

import (
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/twmb/franz-go/pkg/kfake"
)

// TestProbeRedactsSecrets: the SASL PLAIN password (given as a flag or in
// $KAFKAGRID_SASL_PASSWORD) and the SCRAM proof appear in no output of probe (text, JSON,
// the report's files), a note says they were redacted, and PLAIN without TLS warns.
func TestProbeRedactsSecrets(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	for _, mech := range []string{"PLAIN", "SCRAM-SHA-256"} {
		t.Run(mech, func(t *testing.T) {
			c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser(mech, "admin", "pw-Zq9Xv"))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			t.Setenv("KAFKAGRID_SASL_PASSWORD", "pw-Zq9Xv")
			for _, format := range []string{"txt", "json"} {
				rep := filepath.Join(t.TempDir(), "report")
				out, errs, code := runCmd(t, "probe", "-schemas", schemas, "-format", format, "-o", rep, "-sasl-mechanism", mech, "-sasl-user", "admin", c.ListenAddrs()[0])
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				all := out + errs
				filepath.Walk(rep, func(p string, fi os.FileInfo, err error) error {
					if err == nil && fi.Mode().IsRegular() {
						b, _ := os.ReadFile(p)
						all += string(b)
					}
					return nil
				})
				for _, secret := range []string{"pw-Zq9Xv", "70772d5a713958", ",p=" + "A", ",p=" + "B"} {
					if strings.Contains(all, secret) {
						t.Errorf("%s: %q is in the output", format, secret)
					}
				}
				what := "the SASL PLAIN password (8 bytes) redacted"
				if mech != "PLAIN" {
					what = "the SCRAM client proof (44 bytes) redacted"
				}
				if !strings.Contains(out, "secrets redacted: 1 (") || !strings.Contains(out, what) {
					t.Errorf("%s: no note of the secret redacted:\n%s", format, out)
				}
				if warned := strings.Contains(errs, "SASL PLAIN without -tls sends the password in clear text"); warned != (mech == "PLAIN") {
					t.Errorf("%s: warning %v: %s", mech, warned, errs)
				}
			}
		})
	}
}

// TestRedact: each secret a frame carries is replaced by '*' in a copy of its bytes, in its
// node's value and in the body's values; offsets and the bytes given stay as they were.
func TestRedact(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		api    string
		resp   bool
		body   kafka.Values
		secret string
		want   string
	}{
		{"SaslAuthenticate", false, kafka.Values{"AuthBytes": []byte("\x00alice\x00hunter2")}, "hunter2", "the SASL PLAIN password (7 bytes)"},
		{"SaslAuthenticate", false, kafka.Values{"AuthBytes": []byte("c=biws,r=abc123,p=cHJvb2Y=")}, "cHJvb2Y=", "the SCRAM client proof (8 bytes)"},
		{"SaslAuthenticate", false, kafka.Values{"AuthBytes": []byte("n,,\x01auth=Bearer eyJtoken\x01\x01")}, "eyJtoken", "the OAUTHBEARER token (8 bytes)"},
		{"CreateDelegationToken", true, kafka.Values{"Hmac": []byte("mac-bytes-1234")}, "mac-bytes-1234", "the delegation token's HMAC (14 bytes)"},
		{"RenewDelegationToken", false, kafka.Values{"Hmac": []byte("mac-bytes-1234")}, "mac-bytes-1234", "the delegation token's HMAC (14 bytes)"},
	} {
		t.Run(tc.api, func(t *testing.T) {
			a, _ := cat.Lookup(tc.api)
			f, err := cat.Encode(kafka.Message{API: a, Version: a.Version, Response: tc.resp, CorrelationID: 3, Body: tc.body})
			if err != nil {
				t.Fatal(err)
			}
			orig := string(f.Bytes)
			g, err := cat.Decode(f.Bytes, kafka.DecodeOptions{Response: tc.resp, API: a, Version: a.Version})
			if err != nil {
				t.Fatal(err)
			}
			notes := kafka.Redact(g)
			if len(notes) != 1 || !strings.Contains(notes[0], tc.want+" redacted") {
				t.Fatalf("notes %q", notes)
			}
			if string(f.Bytes) != orig {
				t.Error("the bytes given were changed")
			}
			if len(g.Bytes) != len(orig) || strings.Contains(string(g.Bytes), tc.secret) || !strings.Contains(string(g.Bytes), strings.Repeat("*", len(tc.secret))) {
				t.Errorf("bytes %q", g.Bytes)
			}
			var text strings.Builder
			kafka.WriteText(&text, g.Root)
			var js strings.Builder
			g.WriteJSON(&js, "", "")
			if strings.Contains(text.String()+js.String(), tc.secret) {
				t.Errorf("the secret is in the text or JSON:\n%s", text.String())
			}
			for _, v := range g.Body {
				if b, ok := v.([]byte); ok && strings.Contains(string(b), tc.secret) {
					t.Error("the secret is in the body's values")
				}
			}
		})
	}
}

// TestProbeKeepsWhatCame: against a broker that answers only ApiVersions, probe prints that
// exchange (as it completes) before it fails on the next; -timeout must be positive.
func TestProbeKeepsWhatCame(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	cat, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var size [4]byte
		if _, err := io.ReadFull(c, size[:]); err != nil {
			return
		}
		req := make([]byte, binary.BigEndian.Uint32(size[:]))
		io.ReadFull(c, req)
		av, _ := cat.Lookup("ApiVersions")
		v := int16(binary.BigEndian.Uint16(req[2:]))
		corr := int32(binary.BigEndian.Uint32(req[4:]))
		md, _ := cat.Lookup("Metadata")
		f, err := cat.Encode(kafka.Message{API: av, Version: v, Response: true, CorrelationID: corr, Body: kafka.Values{
			"ErrorCode": int64(0), "ApiKeys": []any{
				kafka.Values{"ApiKey": int64(av.Key), "MinVersion": int64(0), "MaxVersion": int64(av.Version)},
				kafka.Values{"ApiKey": int64(md.Key), "MinVersion": int64(0), "MaxVersion": int64(md.Version)}}}})
		if err != nil {
			return
		}
		c.Write(f.Bytes) // and nothing more: the Metadata request gets no answer
	}()
	out, errs, code := runCmd(t, "probe", "-q", "-schemas", schemas, "-timeout", "5s", ln.Addr().String())
	if code != 1 || !strings.Contains(errs, "Metadata") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "-- ApiVersions v4 response, correlation id 1") {
		t.Errorf("the ApiVersions exchange is not printed:\n%s", out)
	}
	for _, d := range []string{"0s", "-1s"} {
		if _, errs, code := runCmd(t, "probe", "-schemas", schemas, "-timeout", d, ln.Addr().String()); code != 2 {
			t.Errorf("-timeout %s: exit %d: %s", d, code, errs)
		}
	}
}
