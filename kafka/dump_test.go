package kafka

import (
	"os"
	"testing"
)

func TestDumpExamples(t *testing.T) {
	if os.Getenv("KAFKAGRID_DUMP") == "" {
		t.Skip()
	}
	for _, f := range frames(testVectors(t, "4.0")) {
		os.Stdout.WriteString("== " + f.BaseName() + "\n")
		WriteText(os.Stdout, f.Root)
	}
}
