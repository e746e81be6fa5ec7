package textbytes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseTextForms reads every form of testdata/forms/frame.bin, each as a real tool printed
// it (testdata/forms/gen.sh says how each was made), and checks the bytes, the form and the
// tool named. Every file there is in the table.
func TestParseTextForms(t *testing.T) {
	dir := filepath.Join("testdata", "forms")
	want, err := os.ReadFile(filepath.Join(dir, "frame.bin"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file   string
		form   Form
		detail string
		err    string // a form the tool cut short
	}{
		{file: "xxd.txt", form: Dump, detail: "xxd"},
		{file: "xxd-g1.txt", form: Dump, detail: "xxd"},
		{file: "xxd-p.txt", form: Hex, detail: "hex stream"},
		{file: "xxd-i.c", form: List, detail: "C array"},
		{file: "hexdump-C.txt", form: Dump, detail: "hexdump -C"},
		{file: "od-Ax-tx1.txt", form: Dump, detail: "od -Ax -tx1"},
		{file: "od-Ax-tx1z.txt", form: Dump, detail: "od -Ax -tx1z"},
		{file: "od-tx1-octal.txt", form: Dump, detail: "od (octal offsets)"},
		{file: "od-An-tx1.txt", form: Hex, detail: "plain hex"},
		{file: "base64.txt", form: Base64, detail: "base64"},
		{file: "tshark-x.txt", form: Dump, detail: "tshark -x"},
		{file: "wireshark.txt", form: Dump, detail: "Wireshark hex dump"},
		{file: "netty.txt", form: Dump, detail: "Netty hex dump"},
		{file: "tester.txt", form: Dump, detail: "hex table (Idx | Hex | ASCII)"},
		{file: "log-xxd.txt", form: Dump, detail: "xxd"},
		{file: "log-plain.txt", form: Hex, detail: "hex stream"},
		{file: "python-repr.txt", form: String, detail: "Python bytes literal"},
		{file: "python-bytearray.txt", form: String, detail: "Python bytes literal"},
		{file: "python-list.txt", form: List, detail: "byte list"},
		{file: "python-hex.txt", form: Hex, detail: "hex stream"},
		{file: "python-hex-space.txt", form: Hex, detail: "plain hex"},
		{file: "python-hex-colon.txt", form: Hex, detail: "plain hex"},
		{file: "python-0x.txt", form: Hex, detail: "plain hex"},
		{file: "python-fromhex.py", form: String, detail: "hex in a string (fromhex, pack H*)"},
		{file: "python-bytes-list.py", form: List, detail: "Python bytes"},
		{file: "node-buffer.json", form: List, detail: "Node Buffer JSON"},
		{file: "node-inspect.txt", form: Hex, detail: "Node Buffer (util.inspect)"},
		{file: "node-inspect-cut.txt", err: `line 1, column 159: Node cut the Buffer short`},
		{file: "node-array.txt", form: List, detail: "byte list"},
		{file: "node-hex.txt", form: Hex, detail: "hex stream"},
		{file: "go-sharp-v.txt", form: List, detail: "Go []byte"},
		{file: "go-literal.txt", form: List, detail: "Go []byte"},
		{file: "go-chars.txt", form: List, detail: "Go []byte"},
		{file: "go-println.txt", form: List, detail: "Go fmt.Println of a []byte"},
		{file: "java-arrays-tostring.txt", form: List, detail: "byte list, signed bytes"},
		{file: "java-literal.java", form: List, detail: "Java byte[]"},
		{file: "rust-debug.txt", form: List, detail: "byte list"},
		{file: "rust-debug-hex.txt", form: List, detail: "byte list"},
		{file: "rust-debug-02x.txt", form: List, detail: "byte list, hex without 0x"},
		{file: "rust-literal.rs", form: List, detail: "Rust byte list"},
		{file: "js-uint8array.js", form: List, detail: "JavaScript bytes"},
		{file: "c-string.c", form: String, detail: "C string"},
		{file: "comments.txt", form: Hex, detail: "plain hex"},
		{file: "prose-header.txt", form: Hex, detail: "hex stream"},
	}
	listed := map[string]bool{"frame.bin": true, "gen.sh": true}
	for _, tt := range tests {
		listed[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(text, Auto)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := got.Bytes
			if tt.file == "tshark-x.txt" {
				// The whole packet: its TCP payload, the frame, ends it.
				if !bytes.HasSuffix(b, want) || len(b) < len(want)+54 {
					t.Fatalf("not a packet ending with the frame: % x", b)
				}
				b = b[len(b)-len(want):]
			}
			if !bytes.Equal(b, want) {
				t.Errorf("got  % x\nwant % x", b, want)
			}
			if got.Form != tt.form || got.Detail != tt.detail {
				t.Errorf("read as %s (%s), want %s (%s)", got.Form, got.Detail, tt.form, tt.detail)
			}
			// The form forced reads the same.
			if f, err := Parse(text, tt.form); err != nil || !bytes.Equal(f.Bytes, got.Bytes) {
				t.Errorf("-from %s: %v", tt.form, err)
			}
		})
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if !listed[f.Name()] {
			t.Errorf("%s is not in the table", f.Name())
		}
	}
}
