package textbytes

import (
	"bytes"
	"strings"
	"testing"
)

// TestParseTextCode reads bytes written as code that builds them (Erlang and Elixir
// binaries, Python struct.pack), annotated listings, and Ruby strings; and says where such a
// text is wrong.
func TestParseTextCode(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		want   []byte
		detail string
		err    string // the error's line, column and words
	}{
		{name: "elixir sized", text: "<<3::16, 0::16, 1::32, 3::16, \"foo\"::binary, -1::32>>",
			want: []byte{0, 3, 0, 0, 0, 0, 0, 1, 0, 3, 'f', 'o', 'o', 0xff, 0xff, 0xff, 0xff}, detail: "Elixir binary"},
		{name: "elixir size() and types", text: "<<1::size(16), 2::16-little, 3::integer-size(8), ?a>>",
			want: []byte{0, 1, 2, 0, 3, 'a'}, detail: "Elixir binary"},
		{name: "erlang", text: "Bin = <<16#ff, 2#101, $a, 1:32/big, 5:16/little-signed>>.",
			want: []byte{0xff, 5, 'a', 0, 0, 0, 1, 5, 0}, detail: "Erlang binary"},
		{name: "decimal bytes", text: "expected =\n  <<0, 0, 0, 1,\n    255>>", want: []byte{0, 0, 0, 1, 255}, detail: "Erlang or Elixir binary"},
		{name: "binary variable", text: "<<0::32, topic::binary>>", err: `line 1, column 10: "topic" is a variable`},
		{name: "binary too big", text: "<<256>>", err: "line 1, column 3: 256 does not fit in 1 bytes"},
		{name: "binary open", text: "<<0, 1", err: "does not end"},
		{name: "struct.pack", text: "expected = b\"\".join([\n    struct.pack('>i', 17),  # size\n    struct.pack('>h3s', 3, b\"cid\"),# client\n    struct.pack(\"<h\", -2),\n    struct.pack('>?Bx', True, 255),\n    b'\\x01',\n])",
			want: []byte{0, 0, 0, 17, 0, 3, 'c', 'i', 'd', 0xfe, 0xff, 1, 255, 0, 1}, detail: "Python struct.pack"},
		{name: "struct.pack len", text: "b''.join([struct.pack('>h', len('client3')), b'client3'])",
			want: append([]byte{0, 7}, "client3"...), detail: "Python struct.pack"},
		{name: "struct.pack variable", text: "b''.join([struct.pack('>i', 1), msg_a_binary])", err: `line 1, column 33: "msg_a_binary" is a name, not bytes`},
		{name: "struct.pack range", text: "struct.pack('>h', 40000)", err: "line 1, column 19: 40000 is out of range"},
		{name: "struct.pack native", text: "struct.pack('hh', 1, 2)", err: "no byte order"},
		{name: "struct.pack count", text: "struct.pack('>hh', 1)", err: "wants more values"},
		{name: "struct.pack empty value", text: "struct.pack('>h', 1, , 2)", err: `line 1, column 13: format ">h" takes 1 values; 3 given`},
		{name: "annotated", text: "*** Request header\nRequestMessage => ApiKey ApiVersion\n00:01:    # ApiKey => int16\n    [ the first element\n00:00:00:2a:  # CorrelationId\n",
			want: []byte{0, 1, 0, 0, 0, 0x2a}, detail: "plain hex"},
		{name: "label", text: "***** A FetchRequest\nHex Stream: 0000004d0001\n", want: []byte{0, 0, 0, 0x4d, 0, 1}, detail: "hex stream"},
		{name: "annotated typo", text: "*** header\n00:0g:01\n", err: "line 2"},
		{name: "ruby let", text: `let(:response_bytes) { "\x00\x19\xFF\xFF\xFF\xFF" }`, want: []byte{0, 0x19, 0xff, 0xff, 0xff, 0xff}, detail: "C string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.text), Auto)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes, tt.want) || got.Detail != tt.detail {
				t.Errorf("got % x (%s), want % x (%s)", got.Bytes, got.Detail, tt.want, tt.detail)
			}
		})
	}
}
