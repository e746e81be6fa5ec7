package arena

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestStringsStay builds many strings across several blocks and checks that every string
// handed out keeps its bytes, whatever is appended after it.
func TestStringsStay(t *testing.T) {
	var a Text
	var got, want []string
	for i := range 3000 {
		var s string
		switch i % 4 {
		case 0:
			s = a.Int(int64(i * 7919))
		case 1:
			s = a.Cat("p", strconv.Itoa(i), ".", strings.Repeat("x", i%50))
		case 2:
			s = a.Bytes([]byte(fmt.Sprintf("b%d", i)))
		default:
			start := a.Len()
			a.Set(append(a.Buf(), "raw"...)) // no Reserve: may move to a new block
			a.Set(strconv.AppendInt(a.Buf(), int64(i), 10))
			s = a.Since(start)
		}
		got = append(got, s)
		want = append(want, strings.Clone(s))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d changed: %q, was %q", i, got[i], want[i])
		}
	}
}

func TestEmpty(t *testing.T) {
	var a Text
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"cat of nothing", a.Cat(), ""},
		{"cat of empties", a.Cat("", ""), ""},
		{"no bytes", a.Bytes(nil), ""},
		{"since the end", a.Since(a.Len()), ""},
		{"small int", a.Int(42), "42"},
		{"negative int", a.Int(-5), "-5"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func ExampleText() {
	var a Text
	path := a.Cat("Topics", "[", a.Int(3), "]")
	start := a.Len()
	a.Reserve(16)
	a.Set(strconv.AppendQuote(a.Buf(), "orders"))
	value := a.Since(start)
	fmt.Println(path, value)
	// Output: Topics[3] "orders"
}
