package textbytes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseHex: any text either reads or is an error naming where; never a panic.
func FuzzParseHex(f *testing.F) {
	f.Add("00000000: 0000 002a 0012 0004 0000 0007 0009 6b61  ...*..........ka\n00000010: 666b 6167 7269 64                        fkagrid\n")
	f.Add("00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000030  01                                                |.|\n00000031\n")
	f.Add("0000   00 00 00 2a 00 12 00 04 00 00 00 07 00 09 6b 61   ...*..........ka\n")
	f.Add(`"\x00\x00\x00\x2a" \` + "\n" + `"\x66\x6b"`)
	f.Add("0x00, 0x2a, 0x6b")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Bytes([]byte(s))
		if err == nil && len(b) == 0 {
			t.Fatal("no bytes and no error")
		}
	})
}

// FuzzParseText: any text, in any form asked, reads to some bytes or is a *Error with a
// line and column inside the text and at most one line quoted, cut at 80 characters; what
// reads auto-detected reads with its form forced. Seeded with every form of
// testdata/forms and the real frames of ../testdata/real-frames and ../shared/real-frames.
func FuzzParseText(f *testing.F) {
	for _, dir := range []string{filepath.Join("testdata", "forms"), filepath.Join("testdata", "scripts"), filepath.Join("..", "testdata", "real-frames"), filepath.Join("..", "..", "shared", "real-frames")} {
		files, _ := os.ReadDir(dir)
		for _, e := range files {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && LooksLikeText(b) && len(b) < 8<<10 {
				f.Add(string(b), uint8(0))
			}
		}
	}
	f.Add("00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000030\n", uint8(2))
	f.Add("[tester::#GS0] 0000 | 00 01 | ..\n", uint8(0))
	f.Add("<<1::16, -1::32, 16#ff, $a, \"ab\"::binary, 7:8/little>>", uint8(0))
	f.Add("x = b\"\".join([struct.pack('>h3s', 3, b\"cid\"),# id\n struct.pack('<iq', -1, len('ab'))])", uint8(3))
	f.Add("*** header\nHex Stream: 0000002a\n00:01:  # a\n", uint8(0))
	f.Add("x = b''.join([Int32.encode(-1), String('utf-8').encode(None), CompactBytes.encode(b'k'),\n VarInt64.encode(-300), (5).to_bytes(2, 'little')])\nsend(f([\"00 01\", \"0a 0b\"]))", uint8(0))
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		forms := append([]Form{Auto}, Forms...)
		from := forms[int(which)%len(forms)]
		got, err := Parse([]byte(s), from)
		if err != nil {
			te, ok := err.(*Error)
			if !ok {
				t.Fatalf("%T: %v", err, err)
			}
			lines := strings.Count(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n") + 1 // a lone CR ends a line too
			if te.Line < 1 || te.Col < 1 || te.Line > lines || strings.Contains(te.Quote, "\n") || utf8.RuneCountInString(te.Quote) > maxQuote+2 {
				t.Fatalf("bad position or quote: %+v", te)
			}
			return
		}
		if len(got.Bytes) == 0 {
			t.Fatal("no bytes and no error")
		}
		if got.Form == Dump && bytes.Count([]byte(s), []byte("*")) > 0 && len(got.Bytes) > len(s)+MaxRepeat {
			t.Fatalf("%d bytes from %d of text", len(got.Bytes), len(s))
		}
		if from == Auto {
			// Forced, a form is read less strictly (base64 in any layout): it reads too,
			// though not always the same paragraphs.
			if _, err := Parse([]byte(s), got.Form); err != nil {
				t.Fatalf("auto read %s (%d bytes); forced: %v", got.Form, len(got.Bytes), err)
			}
		}
	})
}
