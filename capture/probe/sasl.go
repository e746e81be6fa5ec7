package probe

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Authenticate authenticates the connection with SASL: SaslHandshake with the mechanism,
// then SaslAuthenticate exchanges (KIP-152), one for PLAIN (RFC 4616), two for SCRAM-SHA-256
// and SCRAM-SHA-512 (RFC 5802, RFC 7677), at the highest versions both sides speak
// (Versions). The password and the SCRAM proof are redacted in what is recorded. A broker that
// refuses is an error naming the API and its error code.
func (c *Client) Authenticate(mechanism, user, password string) error {
	mech := strings.ToUpper(mechanism)
	var h func() hash.Hash
	switch mech {
	case "PLAIN":
	case "SCRAM-SHA-256":
		h = sha256.New
	case "SCRAM-SHA-512":
		h = sha512.New
	default:
		return fmt.Errorf("capture: sasl: mechanism %q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", mechanism)
	}
	hs, _ := c.cat.Lookup(strconv.Itoa(int(kafka.KeySaslHandshake)))
	au, _ := c.cat.Lookup(strconv.Itoa(int(kafka.KeySaslAuthenticate)))
	if hs == nil || au == nil {
		return errors.New("capture: sasl: the release has no SaslHandshake or SaslAuthenticate")
	}
	ranges, err := c.Versions()
	if err != nil {
		return err
	}
	for _, a := range []*kafka.API{hs, au} {
		if _, ok := ranges[a.Key]; !ok {
			return fmt.Errorf("capture: sasl: the broker does not offer %s (key %d)", a.Name, a.Key)
		}
	}
	// SaslHandshake v0 would send the tokens bare (KIP-43); v1 and later, in SaslAuthenticate.
	hv := min(hs.Version, ranges[hs.Key][1])
	if hs.Facts().BareTokensAfterV0 && hv < 1 {
		return fmt.Errorf("capture: sasl: the broker speaks SaslHandshake v%d only; SaslAuthenticate needs v1 (KIP-152)", hv)
	}
	e, err := c.Send(hs, hv, kafka.Values{"Mechanism": mech})
	if err != nil {
		return err
	}
	if err := respError(e, hs.Name); err != nil {
		return err
	}
	av := min(au.Version, ranges[au.Key][1])
	auth := func(b []byte) ([]byte, error) {
		e, err := c.Send(au, av, kafka.Values{"AuthBytes": b})
		if err != nil {
			return nil, err
		}
		if err := respError(e, au.Name); err != nil {
			return nil, err
		}
		out, _ := e.Response.Frame.Body["AuthBytes"].([]byte)
		return out, nil
	}
	if h == nil {
		_, err := auth([]byte("\x00" + user + "\x00" + password))
		return err
	}
	return scram(h, user, password, auth)
}

// respError is the error of a response that did not decode or that carries an error code.
func respError(e *capture.Exchange, what string) error {
	f := e.Response.Frame
	if e.Response.Err != nil {
		return fmt.Errorf("capture: %s response: %w", what, e.Response.Err)
	}
	if code, _ := f.Body["ErrorCode"].(int64); code != 0 {
		msg, _ := f.Body["ErrorMessage"].(string)
		return fmt.Errorf("capture: %s: error code %d %s %s", what, code, kafka.ErrorName(int16(code)), msg)
	}
	return nil
}

// scram runs a SCRAM exchange (RFC 5802, section 3) through auth.
func scram(h func() hash.Hash, user, pass string, auth func([]byte) ([]byte, error)) error {
	var nb [18]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return err
	}
	nonce := base64.RawStdEncoding.EncodeToString(nb[:])
	name := strings.NewReplacer("=", "=3D", ",", "=2C").Replace(user)
	first := "n=" + name + ",r=" + nonce
	srv, err := auth([]byte("n,," + first))
	if err != nil {
		return err
	}
	var rnonce, salt64 string
	iter := 0
	for _, kv := range strings.Split(string(srv), ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "r":
			rnonce = v
		case "s":
			salt64 = v
		case "i":
			iter, _ = strconv.Atoi(v)
		}
	}
	salt, err := base64.StdEncoding.DecodeString(salt64)
	if err != nil || !strings.HasPrefix(rnonce, nonce) || iter < 1 || iter > 1<<20 {
		return fmt.Errorf("capture: scram: bad server-first message %q", srv)
	}
	salted, err := pbkdf2.Key(h, pass, salt, iter, h().Size())
	if err != nil {
		return err
	}
	mac := func(key []byte, s string) []byte {
		m := hmac.New(h, key)
		m.Write([]byte(s))
		return m.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	sh := h()
	sh.Write(clientKey)
	stored := sh.Sum(nil)
	final := "c=biws,r=" + rnonce
	authMsg := first + "," + string(srv) + "," + final
	sig := mac(stored, authMsg)
	proof := make([]byte, len(clientKey))
	for i := range proof {
		proof[i] = clientKey[i] ^ sig[i]
	}
	last, err := auth([]byte(final + ",p=" + base64.StdEncoding.EncodeToString(proof)))
	if err != nil {
		return err
	}
	want := "v=" + base64.StdEncoding.EncodeToString(mac(mac(salted, "Server Key"), authMsg))
	if string(last) != want {
		return errors.New("capture: scram: the server's signature does not verify")
	}
	return nil
}
