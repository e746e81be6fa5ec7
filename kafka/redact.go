package kafka

import (
	"bytes"
	"fmt"
	"strings"
)

// redactMark fills a secret's bytes: the frame keeps its length and every offset.
const redactMark = '*'

// Redact replaces the secrets f carries with '*' bytes, in a copy of f.Bytes (the bytes given
// to Decode, or sent, are left as they were), in the nodes' values and in f.Body: the password of
// a SASL PLAIN token (RFC 4616, after the second NUL), the proof of a SCRAM client-final
// message (RFC 5802, "p="), the bearer token of an OAUTHBEARER message (RFC 7628, "auth="), a
// delegation token's HMAC (Create, Renew, Expire and DescribeDelegationToken) and a SCRAM
// credential's salted password (AlterUserScramCredentials). It returns one note for each
// secret replaced ("SaslAuthenticate request AuthBytes: the SASL PLAIN password (12 bytes)
// redacted"), nil when there is none. Offsets, lengths and the tree are unchanged. The frame
// an Envelope carries (Embedded) is redacted too, in its own bytes and nodes and in the
// Envelope's.
func Redact(f *Frame) []string {
	if f == nil || f.API == nil || f.Root == nil {
		return nil
	}
	if FactsOf(f.API.Key, f.API.Name).Envelope {
		return redactEmbedded(f)
	}
	// Secrets that frames carry, which no output shows: found by API and field.
	switch f.API.Key {
	case KeySaslAuthenticate, KeyCreateDelegationToken, KeyRenewDelegationToken, KeyExpireDelegationToken,
		KeyDescribeDelegationToken, KeyAlterUserScramCredentials:
	default:
		return nil // no secret: not even a walk of the tree
	}
	var notes []string
	cloned := false
	side := "request"
	if f.Response {
		side = "response"
	}
	f.Root.Walk(func(n *Node) bool {
		b, ok := n.Raw.([]byte)
		if !ok || len(b) == 0 {
			return true
		}
		lo, hi, what := secretIn(f, n, b)
		if what == "" || hi <= lo {
			return true
		}
		data := n.dataNode()
		if data == nil || data.Length != len(b) || data.Offset+data.Length > len(f.Bytes) {
			return true
		}
		if !cloned {
			f.Bytes = bytes.Clone(f.Bytes)
			cloned = true
		}
		note := redactNode(f, n, data, b, lo, hi, what)
		notes = append(notes, fmt.Sprintf("%s v%d %s %s: %s", f.API.Name, f.Version, side, n.Path, note))
		return false
	})
	return notes
}

// secretIn finds the secret of the bytes b of f's node n, by API and field: where it lies in
// b, and what it is ("" for none).
func secretIn(f *Frame, n *Node, b []byte) (lo, hi int, what string) {
	k, resp := f.API.Key, f.Response
	switch {
	case k == KeySaslAuthenticate && !resp && n.Name == "AuthBytes":
		return SASLSecret(b)
	case (k == KeyCreateDelegationToken && resp || k == KeyDescribeDelegationToken && resp ||
		k == KeyRenewDelegationToken && !resp || k == KeyExpireDelegationToken && !resp) && n.Name == "Hmac":
		return 0, len(b), "the delegation token's HMAC"
	case k == KeyAlterUserScramCredentials && !resp && n.Name == "SaltedPassword":
		return 0, len(b), "the SCRAM salted password"
	}
	return 0, 0, ""
}

// redactNode replaces b[lo:hi], the secret of f's node n (whose content is data), with '*'
// bytes in f.Bytes (already a copy), in the values of n and its content, and in f.Body; it
// returns the note saying so.
func redactNode(f *Frame, n, data *Node, b []byte, lo, hi int, what string) string {
	red := bytes.Clone(b)
	for i := lo; i < hi; i++ {
		red[i] = redactMark
	}
	copy(f.Bytes[data.Offset:], red)
	note := fmt.Sprintf("%s (%d bytes) redacted", what, hi-lo)
	var t texts
	value := t.hex(red) + " (" + note + ")"
	old := n.Value
	n.Walk(func(x *Node) bool { // the field and its content node
		if xb, ok := x.Raw.([]byte); ok && bytes.Equal(xb, b) {
			x.Raw = red
		}
		if x.Value == old {
			x.Value = value
		}
		return true
	})
	if v, ok := f.Body[n.Name].([]byte); ok && bytes.Equal(v, b) {
		f.Body[n.Name] = red
	}
	return note
}

// dataNode is the node of a bytes field's content ("…#data"), or n itself when it has no
// children.
func (n *Node) dataNode() *Node {
	if len(n.Children) == 0 {
		return n
	}
	for _, c := range n.Children {
		if strings.HasSuffix(c.Path, "#data") || c.Name == "data" {
			return c
		}
	}
	return nil
}

// SASLSecret finds the secret in a SASL client message b: the password of PLAIN
// ("authzid\x00user\x00password"), the proof of a SCRAM client-final message
// ("c=…,r=…,p=proof"), the token of an OAUTHBEARER message ("…\x01auth=Bearer token\x01…").
// It returns its bounds in b and what it is, or "" when b holds none of these.
func SASLSecret(b []byte) (lo, hi int, what string) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		if j := bytes.IndexByte(b[i+1:], 0); j >= 0 && !bytes.HasPrefix(b, []byte("n,")) && !bytes.HasPrefix(b, []byte("y,")) {
			return i + 1 + j + 1, len(b), "the SASL PLAIN password"
		}
	}
	if bytes.HasPrefix(b, []byte("c=")) {
		if i := bytes.Index(b, []byte(",p=")); i >= 0 {
			end := len(b)
			if j := bytes.IndexByte(b[i+3:], ','); j >= 0 {
				end = i + 3 + j
			}
			return i + 3, end, "the SCRAM client proof"
		}
	}
	if i := bytes.Index(b, []byte("\x01auth=")); i >= 0 {
		start := i + len("\x01auth=")
		if sp := bytes.IndexByte(b[start:], ' '); sp >= 0 && sp < 16 {
			start += sp + 1 // after the scheme ("Bearer ")
		}
		end := len(b)
		if j := bytes.IndexByte(b[start:], 1); j >= 0 {
			end = start + j
		}
		return start, end, "the OAUTHBEARER token"
	}
	return 0, 0, ""
}

// redactEmbedded redacts the frame an Envelope f carries (a forwarded AlterUserScramCredentials
// holds salted passwords, a CreateDelegationToken response an HMAC): in the nested frame, in
// its re-based tree, and in f's bytes, its bytes field and f.Body.
func redactEmbedded(f *Frame) []string {
	name := "RequestData"
	if f.Response {
		name = "ResponseData"
	}
	field, data := bytesField(f, name)
	if data == nil {
		return nil
	}
	e, ok := data.Raw.(*Embedded)
	if !ok || e.Frame == nil || e.Root == nil {
		return nil
	}
	inner := Redact(e.Frame)
	if len(inner) == 0 {
		return nil
	}
	f.Bytes = bytes.Clone(f.Bytes)
	red := f.Bytes[data.Offset : data.Offset+data.Length : data.Offset+data.Length]
	copy(red, e.Frame.Bytes[4:])
	// The re-based tree is a copy of the nested one: copy it again, redacted.
	root := &Node{Kind: KindFrame, Path: e.Root.Path}
	for _, ch := range e.Frame.Root.Children {
		if ch.Kind != KindSize {
			root.Children = append(root.Children, rebase(ch, data.Offset-4, field.Path+"."))
		}
	}
	e.Root = root
	var t texts
	value := t.hex(red) + " (a frame whose secrets are redacted)"
	field.Raw, field.Value, data.Value = red, value, value
	if _, ok := f.Body[name].([]byte); ok {
		f.Body[name] = red
	}
	notes := make([]string, len(inner))
	for i, n := range inner {
		notes[i] = fmt.Sprintf("%s v%d %s: %s", f.API.Name, f.Version, name, n)
	}
	return notes
}

// MaskAuth replaces with '*', in a copy of b, the secret of every SASL client message b may
// hold anywhere in it, whatever frame it would be read as: a PLAIN token's password (a NUL, a
// user of 1 to 255 printable bytes, a NUL, then the password: the printable bytes that follow),
// a SCRAM client-final message's proof ("c=…,r=…,p=proof") and an OAUTHBEARER token
// ("auth=Bearer token"). Printable is any byte but a control byte (UTF-8 passwords included).
//
// It is the rule for bytes that did not decode whole as what they are — before any other
// reading is tried, any guess, any hex dump: where bytes could be an auth exchange, their
// secret is never printed (Redact, by API and field, is the rule for frames that decode). A
// false match in a frame that does not decode costs only a few bytes shown as '*'. It returns
// b itself and nil when there is nothing to mask, else the copy and one note for each secret
// ("offset 27: what looks like a SASL PLAIN password (7 bytes) masked"). The cost is linear
// in b.
func MaskAuth(b []byte) ([]byte, []string) {
	var out []byte
	var notes []string
	masked := 0
	mask := func(lo, hi int, what string) {
		if bytes.Count(b[lo:hi], []byte{redactMark}) == hi-lo {
			return // masked or redacted already
		}
		if out == nil {
			out = bytes.Clone(b)
		}
		for i := lo; i < hi; i++ {
			out[i] = redactMark
		}
		if masked++; len(notes) < maxMaskNotes {
			notes = append(notes, fmt.Sprintf("offset %d: what looks like %s (%d bytes) masked", lo, what, hi-lo))
		}
	}
	printable := func(c byte) bool { return c >= 0x20 && c != 0x7f }
	run := func(i int) int { // the end of the printable run from i
		for i < len(b) && printable(b[i]) {
			i++
		}
		return i
	}
	// PLAIN: NUL user NUL password.
	for i := 0; i < len(b); {
		k := bytes.IndexByte(b[i:], 0)
		if k < 0 {
			break
		}
		i += k
		u := run(i + 1)
		if u == i+1 || u-(i+1) > 255 || u >= len(b) || b[u] != 0 {
			i = max(u, i+1)
			continue
		}
		p := run(u + 1)
		if p == u+1 {
			i = u // the second NUL may start a token of its own
			continue
		}
		mask(u+1, p, "a SASL PLAIN password")
		i = p
	}
	// SCRAM client-final: c=…,r=…,p=proof, one printable run.
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("c="))
		if k < 0 {
			break
		}
		i += k
		end := run(i)
		msg := b[i:end]
		r := bytes.Index(msg, []byte(",r="))
		p := bytes.Index(msg, []byte(",p="))
		if r > 0 && p > r && i+p+3 < end {
			hi := end
			if j := bytes.IndexByte(msg[p+3:], ','); j >= 0 {
				hi = i + p + 3 + j
			}
			if hi > i+p+3 {
				mask(i+p+3, hi, "a SCRAM client proof")
			}
		}
		i = max(end, i+2)
	}
	// OAUTHBEARER: auth=Bearer token.
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("auth="))
		if k < 0 {
			break
		}
		i += k + len("auth=")
		start := i
		if sp := bytes.IndexByte(b[start:run(start)], ' '); sp >= 0 && sp < 16 {
			start += sp + 1 // after the scheme ("Bearer ")
		}
		end := run(start)
		if end > start {
			mask(start, end, "an OAUTHBEARER token")
		}
		i = max(end, i)
	}
	if out == nil {
		return b, nil
	}
	if masked > len(notes) {
		notes = append(notes, fmt.Sprintf("and %d more", masked-len(notes)))
	}
	return out, notes
}

// maxMaskNotes is how many of its secrets MaskAuth names; the rest are counted.
const maxMaskNotes = 8
