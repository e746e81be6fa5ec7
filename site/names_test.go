//go:build !js || !wasm

package site

import (
	"fmt"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

func TestFrameFile(t *testing.T) {
	base := kafka.BaseName(0, "Produce", 12, false)
	tests := []struct {
		base, figure string
		f            Format
		want         string
	}{
		{base, FigureGrid, FormatSVG, "0-Produce-v12-request-grid.svg"},
		{base, FigureTree, FormatSVG, "0-Produce-v12-request-tree.svg"},
		{base, "", FormatJSON, "0-Produce-v12-request.json"},
		{base, "", FormatText, "0-Produce-v12-request.txt"},
		{base, "", FormatBin, "0-Produce-v12-request.bin"},
		{Prefixed("c1-2", kafka.BaseName(18, "ApiVersions", 4, true)), FigureGrid, FormatSVG, "c1-2-18-ApiVersions-v4-response-grid.svg"},
		{Prefixed("", base), "", FormatJSON, "0-Produce-v12-request.json"},
	}
	for _, tt := range tests {
		if got := FrameFile(tt.base, tt.figure, tt.f); got != tt.want {
			t.Errorf("FrameFile(%q, %q, %s) = %q, want %q", tt.base, tt.figure, tt.f.Name, got, tt.want)
		}
	}
}

func ExampleFrameFile() {
	base := kafka.BaseName(18, "ApiVersions", 4, false)
	fmt.Println(FrameFile(base, FigureGrid, FormatSVG))
	fmt.Println(FrameFile(Prefixed("c1-1", base), "", FormatJSON))
	// Output:
	// 18-ApiVersions-v4-request-grid.svg
	// c1-1-18-ApiVersions-v4-request.json
}
