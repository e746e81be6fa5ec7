package suggest

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	names := []string{"build", "list", "show", "grid", "decode", "diff", "version", "probe", "Produce", "Vote", "format"}
	for in, want := range map[string]string{
		"biuld": "build", "shwo": "show", "Produc": "Produce", "fromat": "format", "lsit": "list",
		"Nope": "", "frobnicate": "", "x": "", "decodee": "decode", "vers": "version",
		"grid": "", strings.Repeat("b", 65): "",
	} {
		if got := Closest(in, names); got != want {
			t.Errorf("Closest(%.20q) = %q, want %q", in, got, want)
		}
	}
}
