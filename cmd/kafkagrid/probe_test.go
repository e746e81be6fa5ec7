package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/twmb/franz-go/pkg/kfake"
)

// TestProbe runs probe against franz-go's kfake broker on 127.0.0.1: a Kafka-protocol server
// we did not write. It draws the ApiVersions and Metadata responses, without SASL, with
// SASL/PLAIN and with SCRAM-SHA-256 and -512.
func TestProbe(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	tests := []struct {
		name string
		opts []kfake.Opt
		args []string
	}{
		{"plain", nil, nil},
		{"sasl-plain", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("PLAIN", "admin", "s3cret")},
			[]string{"-sasl-user", "admin", "-sasl-password", "s3cret"}},
		{"scram-256", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret")},
			[]string{"-sasl-mechanism", "scram-sha-256", "-sasl-user", "admin", "-sasl-password", "s3cret"}},
		{"scram-512", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "admin", "s3cret")},
			[]string{"-sasl-mechanism", "SCRAM-SHA-512", "-sasl-user", "admin", "-sasl-password", "s3cret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.SeedTopics(1, "orders")}, tt.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rep := filepath.Join(t.TempDir(), "report")
			args := append([]string{"probe", "-schemas", schemas, "-o", rep}, tt.args...)
			out, errs, code := runCmd(t, append(args, c.ListenAddrs()[0])...)
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, errs, out)
			}
			// The summary: kfake follows the newest Kafka, of the releases beside 4.0 4.1.
			for _, want := range []string{"-- ApiVersions v4 response, correlation id 1", "-- Metadata v13 response",
				`Name = "orders"`, "ApiKeys", "\n== summary\nthe broker's API versions match Kafka 4.1 best: ",
				"\ndiffers: ApiVersions (key 18): the broker 0-5, Kafka 4.1 0-4\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			if strings.HasPrefix(tt.name, "s") && !strings.Contains(out, "SaslAuthenticate") {
				t.Errorf("no SaslAuthenticate exchange")
			}
			if html := reportHTML(t, rep); !strings.Contains(html, "Metadata v13 response") {
				t.Error("the report lacks the Metadata v13 response")
			}
		})
	}
	// A wrong password is refused by the broker: an error, not a drawing of nothing.
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, errs, code := runCmd(t, "probe", "-schemas", schemas, "-sasl-mechanism", "SCRAM-SHA-256", "-sasl-user", "admin", "-sasl-password", "wrong", c.ListenAddrs()[0])
	if code != 1 || !strings.Contains(errs, "SaslAuthenticate") {
		t.Errorf("wrong password: exit %d: %s", code, errs)
	}
	// Writes need -write.
	if _, errs, code := runCmd(t, "probe", "-schemas", schemas, c.ListenAddrs()[0], "CreateTopics"); code != 2 || !strings.Contains(errs, "add -write") {
		t.Errorf("CreateTopics without -write: exit %d: %s", code, errs)
	}
}

// TestProbeTLS: -tls with -tls-ca against kfake serving a certificate made here for
// 127.0.0.1; without the CA the handshake fails.
func TestProbeTLS(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kfake"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	out, errs, code := runCmd(t, "probe", "-schemas", schemas, "-tls", "-tls-ca", ca, c.ListenAddrs()[0])
	if code != 0 || !strings.Contains(out, "-- Metadata v13 response") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, "probe", "-schemas", schemas, "-tls", c.ListenAddrs()[0]); code != 1 || !strings.Contains(errs, "tls:") {
		t.Errorf("without the CA: exit %d: %s", code, errs)
	}
}

// TestProbeLyingBroker: a broker that announces a 100 MiB response and sends ten bytes gets an
// error naming the size, and costs memory for what it sent, not for what it announced.
func TestProbeLyingBroker(t *testing.T) {
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
		io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(size[:])))
		c.Write(append(binary.BigEndian.AppendUint32(nil, 100<<20), make([]byte, 10)...))
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, errs, code := runCmd(t, "probe", "-q", "-schemas", testenv.Release(t, "4.0"), "-timeout", "5s", ln.Addr().String())
	runtime.ReadMemStats(&after)
	if code != 1 || !strings.Contains(errs, "reading the 104857600-byte response") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("allocated %d MiB for a response of 10 bytes", got>>20)
	}
}
