package kafka

import (
	"strings"
	"testing"
)

// TestMaskAuth: the secrets of SASL client messages are masked wherever they stand in bytes
// (a frame that did not decode, bytes around them); bytes with none are given back as they
// were, and the work is linear (a long run of NULs and printable bytes).
func TestMaskAuth(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		notes          int
	}{
		{"plain in a garbled SaslAuthenticate v2", "\x00\x00\x00\x1e\x00\x24\x00\x02\x00\x00\x00\x01\x00\x02id\x00\x0f\x00alice\x00hunter2pw\x05",
			"\x00\x00\x00\x1e\x00\x24\x00\x02\x00\x00\x00\x01\x00\x02id\x00\x0f\x00alice\x00*********\x05", 1},
		{"plain with authzid", "admin\x00alice\x00pässwörd", "admin\x00alice\x00" + strings.Repeat("*", len("pässwörd")), 1},
		{"scram client-final", "\x00\x00\x00\x30c=biws,r=abc123,p=cHJvb2Y=\x00", "\x00\x00\x00\x30c=biws,r=abc123,p=********\x00", 1},
		{"oauthbearer", "n,,\x01auth=Bearer eyJtoken\x01\x01", "n,,\x01auth=Bearer ********\x01\x01", 1},
		{"two tokens", "\x00a\x00b\x01\x00c\x00dd", "\x00a\x00*\x01\x00c\x00**", 2},
		{"no secret", "\x00\x00\x00\x05\x00\x05alice\x00\x00", "\x00\x00\x00\x05\x00\x05alice\x00\x00", 0},
		{"a user too long", "\x00" + strings.Repeat("u", 256) + "\x00pw", "\x00" + strings.Repeat("u", 256) + "\x00pw", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notes := MaskAuth([]byte(tc.in))
			if string(got) != tc.want || len(notes) != tc.notes {
				t.Errorf("got %q %q, want %q (%d notes)", got, notes, tc.want, tc.notes)
			}
		})
	}
	// Bounded: 1 MiB of "\x00a\x00b" tokens is one copy and nine notes, counted in
	// allocations.
	in := []byte(strings.Repeat("\x00a\x00b", 1<<18))
	if _, notes := MaskAuth(in); len(notes) != maxMaskNotes+1 || notes[maxMaskNotes] != "and 262136 more" {
		t.Errorf("notes %q", notes)
	}
	if allocs := testing.AllocsPerRun(1, func() { MaskAuth(in) }); allocs > 64 {
		t.Errorf("%v allocations", allocs)
	}
}
