//go:build !js || !wasm

package report

import (
	"testing"

	"github.com/kafkagrid/kafkagrid/site"
)

// TestFileExts: the report's file names end as site.FrameFile names them.
func TestFileExts(t *testing.T) {
	for _, c := range [][2]string{{gridExt, site.FrameFile("", site.FigureGrid, site.FormatSVG)}, {treeExt, site.FrameFile("", site.FigureTree, site.FormatSVG)},
		{jsonExt, site.FrameFile("", "", site.FormatJSON)}, {textExt, site.FrameFile("", "", site.FormatText)}} {
		if c[0] != c[1] {
			t.Errorf("%q, site.FrameFile %q", c[0], c[1])
		}
	}
}
