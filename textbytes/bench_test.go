package textbytes

import (
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkParseTextLine: one dump line of 96 KB and 384 KB (9.3 s and 145 s when each cut of
// the line's hex was rebuilt), and a 1 MiB xxd dump.
func BenchmarkParseTextLine(b *testing.B) {
	for _, n := range []int{32 << 10, 128 << 10} {
		line := []byte("00000000  " + strings.Repeat("61 ", n) + "\n")
		b.Run(strings.TrimSpace(strings.Repeat(" ", 0))+itoaB(len(line)>>10)+"KB", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for i := 0; i < b.N; i++ {
				if _, err := Parse(line, Auto); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	cmd := exec.Command("xxd")
	cmd.Stdin = strings.NewReader(string(data))
	dump, err := cmd.Output()
	if err != nil {
		b.Skip("xxd: ", err)
	}
	b.Run("xxd-1MiB", func(b *testing.B) {
		b.SetBytes(int64(len(dump)))
		for i := 0; i < b.N; i++ {
			if _, err := Parse(dump, Auto); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func itoaB(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoaB(n/10) + string(rune('0'+n%10))
}
