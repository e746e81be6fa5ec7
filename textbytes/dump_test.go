package textbytes

import (
	"bytes"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

var sample = []byte("\x00\x00\x00\x2a\x00\x12\x00\x04\x00\x00\x00\x07\x00\x09kafkagrid")

func TestParseHex(t *testing.T) {
	tests := []struct {
		name, text string
		want       []byte
	}{
		{"plain", "00 00 00 2a 00 12 00 04 00 00 00 07 00 09 6b 61 66 6b 61 67 72 69 64", sample},
		{"plain no spaces", "0000002a0012000400000007\n00096b61666b6167726964\n", sample},
		{"plain 0x commas", "0x00, 0x00, 0x00, 0x2a, 0x00, 0x12, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07, 0x00, 0x09, 0x6b, 0x61, 0x66, 0x6b, 0x61, 0x67, 0x72, 0x69, 0x64", sample},
		{"plain in fours", "0000 002a 0012 0004 0000 0007 0009 6b61 666b 6167 7269 64", sample},
		{"xxd", "00000000: 0000 002a 0012 0004 0000 0007 0009 6b61  ...*..........ka\n00000010: 666b 6167 7269 64                        fkagrid\n", sample},
		{"hexdump -C", "00000000  00 00 00 2a 00 12 00 04  00 00 00 07 00 09 6b 61  |...*..........ka|\n00000010  66 6b 61 67 72 69 64                              |fkagrid|\n00000017\n", sample},
		{"wireshark hex dump", "0000   00 00 00 2a 00 12 00 04 00 00 00 07 00 09 6b 61   ...*..........ka\n0010   66 6b 61 67 72 69 64                              fkagrid\n", sample},
		{"wireshark escaped", "\"\\x00\\x00\\x00\\x2a\\x00\\x12\\x00\\x04\\x00\\x00\\x00\\x07\\x00\\x09\\x6b\\x61\" \\\n\"\\x66\\x6b\\x61\\x67\\x72\\x69\\x64\"\n", sample},
		// The bytes crate's Debug (kafka-protocol-rs's issues): \0 then a digit is a NUL and the digit.
		{"rust bytes debug", `b"\0\0\0*\0\x12\0\x04\0\0\0\x07\0\tkafkagrid"`, sample},
		{"rust nul then digit", `b"\01"`, []byte{0, '1'}},
		{"c string", `"\0\0\0*\0\022\0\004\0\0\0\a"`, sample[:12]},
		{"ascii column that reads as hex", "00000000: 6162 6364                                abcd\n", []byte("abcd")},
		{"hexdump repeat", "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000030  01                                                |.|\n00000031\n",
			append(make([]byte, 48), 1)},
		{"xxd -s 4: starts past 0", "00000004: 0012 0004 0000 0007 0009 6b61 666b 6167  ..........kafkag\n00000014: 7269 64                                  rid\n", sample[4:]},
		{"crlf", "00000000: 0000 002a 0012 0004 0000 0007 0009 6b61  ...*..........ka\r\n00000010: 666b 6167 7269 64                        fkagrid\r\n", sample},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Bytes([]byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("got  % x\nwant % x", got, tt.want)
			}
		})
	}
}

func TestParseHexErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		// A "*" that would repeat a line up to 1 TiB, or 128 MiB, is an error at the "*".
		{"00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n10000000000\n", `line 2, column 1: "*" repeats the line before up to offset 0x10000000000`},
		{"00000000  00 00 00 04 7f ff 00 00  00 00 00 04 7f ff 00 00  |................|\n*\n08000000\n", `line 2, column 1: "*" repeats the line before up to offset 0x8000000: 134217712 more bytes, past the 4194304`},
		{"00 0g", `line 1, column 5: "g" is not a hex digit, in "0g"`},
		{"00 11\n123", `line 2, column 1: "123" has 3 hex digits: a byte is two`},
		{"   \n", "no bytes"},
		{`"\x00" junk`, `line 1, column 8: "junk" outside a quoted string`},
		{`"\x00`, "line 1, column 1: a string that does not end on its line"},
		{`"\q"`, `unknown escape \q`},
	} {
		_, err := Bytes([]byte(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}

// TestParseHexTools reads what the real tools print, for bytes of every value.
func TestParseHexTools(t *testing.T) {
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	copy(data[300:], make([]byte, 100)) // zeros: hexdump -C writes "*"
	for _, tool := range [][]string{{"xxd"}, {"hexdump", "-C"}, {"xxd", "-p"}, {"od", "-An", "-tx1", "-v"}} {
		if _, err := exec.LookPath(tool[0]); err != nil {
			t.Fatalf("%s is not installed (.ci/run installs xxd and bsdextrautils)", tool[0])
		}
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Bytes(out)
		if err != nil {
			t.Fatalf("%v: %v", tool, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%v: %d bytes read back differently", tool, len(got))
		}
	}
}

// TestParseTextLinear: reading costs a bounded multiple of the text, counted in bytes
// allocated, and twice the text costs about twice as much: a long dump line (each cut of its
// hex was rebuilt: 9.3 s and gigabytes for 96 KB), many unclosed "/*", many small byte lists,
// many lines.
func TestParseTextLinear(t *testing.T) {
	for name, text := range map[string]func(n int) string{
		"dump line": func(n int) string {
			return "00000000: " + strings.Repeat("00 ", n) + " " + strings.Repeat(".", n) + "\n"
		},
		"dump no col": func(n int) string { return "00000000  " + strings.Repeat("61 ", n) + "\n" },
		"open /*":     func(n int) string { return strings.Repeat("00 /* ", n) },
		"lists":       func(n int) string { return strings.Repeat("(1, 2) ", n) },
		"lines":       func(n int) string { return strings.Repeat("00 01 02 03\n", n) },
		"prose":       func(n int) string { return strings.Repeat("some words here\n\n", n) },
		"stream":      func(n int) string { return strings.Repeat("00", n) },
	} {
		var cost [2]uint64
		for i, n := range []int{8 << 10, 16 << 10} {
			s := []byte(text(n))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			Parse(s, Auto)
			runtime.ReadMemStats(&after)
			cost[i] = after.TotalAlloc - before.TotalAlloc
			if limit := uint64(1000*len(s) + 1<<20); cost[i] > limit {
				t.Errorf("%s: %d bytes of text allocated %d bytes, over %d", name, len(s), cost[i], limit)
			}
		}
		if cost[1] > 3*cost[0] {
			t.Errorf("%s: twice the text allocated %d bytes, %.1f times as much", name, cost[1], float64(cost[1])/float64(cost[0]))
		}
	}
}
