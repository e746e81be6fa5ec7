package textbytes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseScripts reads the bytes inside whole scripts (Python, JavaScript, shell, Ruby)
// wherever they stand, and refuses with the line those whose bytes only running the code
// gives. Every file of testdata/scripts is in the table, and each that reads holds the same
// ApiVersions v0 request, built in its own way (the Python ones give these bytes when run).
func TestParseScripts(t *testing.T) {
	want := []byte("\x00\x00\x00\x0c\x00\x12\x00\x00\x00\x00\x00\x01\x00\x02kg")
	tests := []struct {
		file, detail, note string
		err                string
	}{
		{file: "apiversions.py", detail: "Python bytes"},
		{file: "apiversions.js", detail: "JavaScript bytes"},
		{file: "apiversions.sh", detail: "byte string in a script", note: "the byte string of line 3 read (its code is not run)"},
		{file: "apiversions.rb", detail: "byte string in a script", note: "the byte string of line 3 read"},
		{file: "joined-by-name.py", err: "line 6, column 7: header + client joins byte strings by their names: only running the script gives the bytes"},
		{file: "variable-in-list.py", err: `line 3, column 54: "corr" is a name, not a byte: its value is known only by running the code`},
		{file: "kafka-types.py", detail: "bytes built in a script (byte string, Int32.encode(…), Int16.encode(…), struct.pack(…), String.encode(…))", note: "the bytes of lines 9–15 read from their literals"},
		{file: "hex-strings.py", detail: "bytes built in a script (hex strings)", note: "the hex strings of lines 13–23 are given to unhex(), whose code is not run"},
		{file: "to-bytes.py", detail: "bytes built in a script (int.to_bytes(…), bytes.fromhex(…), str.encode(…))", note: "lines 5–10"},
		{file: "concat.js", detail: "bytes built in a script (Buffer.from(…, 'hex'), Buffer.from([…]))", note: "lines 5–8"},
		{file: "xxd-r.sh", detail: "bytes built in a script (xxd -r)", note: "line 3"},
		{file: "size-by-name.py", err: `line 6, column 18: "len" is not a literal value: only numbers, True, False and len('…') are read (in Int32.encode(…))`},
		{file: "buffer-writes.js", err: `line 4, column 1: buf.writeInt32BE(…) writes into a buffer: its bytes are known only by running the code`},
		{file: "hex-strings-variable.py", err: `line 8, column 5: "corr" is a name among hex strings: its value is known only by running the code`},
	}
	dir := filepath.Join("testdata", "scripts")
	listed := map[string]bool{}
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
			if !bytes.Equal(got.Bytes, want) || got.Detail != tt.detail {
				t.Errorf("%q (%s), want %q (%s)", got.Bytes, got.Detail, want, tt.detail)
			}
			if tt.note != "" && !strings.Contains(strings.Join(got.Notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", got.Notes, tt.note)
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

// TestScriptCodecs reads the typed encoders of the Python Kafka clients and int.to_bytes as
// those libraries write them: each want is what aiokafka 0.14.0's protocol/types.py and
// CPython gave for the same expression.
func TestScriptCodecs(t *testing.T) {
	for _, tt := range []struct{ expr, want string }{
		{`b"".join([Int8.encode(-2), Int16.encode(300), UInt32.encode(4000000000), Int64.encode(-1), Boolean.encode(True)])`, "fe012cee6b2800ffffffffffffffff01"},
		{`b"".join([String("utf-8").encode("ab"), String("utf-8").encode(None), Bytes.encode(b"\x01\x02"), Bytes.encode(None)])`, "00026162ffff000000020102ffffffff"},
		{`b"".join([CompactString("utf-8").encode("kg"), CompactString("utf-8").encode(None), CompactBytes.encode(b"xyz"), CompactBytes.encode(None)])`, "036b67000478797a00"},
		{`b"".join([UnsignedVarInt32.encode(300), VarInt32.encode(-1), VarInt32.encode(150)])`, "ac02ffffffff0fac02"},
		{`(258).to_bytes(2, "little") + int.to_bytes(-2, 4, "big", signed=True) + (7).to_bytes(1, byteorder="big")`, "0201fffffffe07"},
	} {
		got, err := Parse([]byte("import x\n\nframe = "+tt.expr+"\nsend(frame)\n"), Auto)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if h := fmt.Sprintf("%x", got.Bytes); h != tt.want {
			t.Errorf("%s: %s, want %s", tt.expr, h, tt.want)
		}
	}
	_, err := Parse([]byte("x = b''.join([Int32.encode(1), VarInt64.encode(-3)])\n"), Auto)
	if err == nil || !strings.Contains(err.Error(), "VarInt64") {
		t.Errorf("VarInt64 (not read): %v", err)
	}
}
