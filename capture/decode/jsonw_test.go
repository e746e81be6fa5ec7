package decode

import (
	"encoding/json"
	"testing"
)

// TestJSONSummaryAsMarshal: the summary line is what json.Marshal and json.MarshalIndent
// write of it, for every member set or left out, and hostile text.
func TestJSONSummaryAsMarshal(t *testing.T) {
	for _, s := range []string{"", "pcapng", `<"&'>`, "a\u2028b", "\x00\xff"} {
		for _, sum := range []jsonSummary{{Kind: s, Conns: []jsonConn{}}, {Kind: s},
			{Kind: s, Packets: 3, Frames: 2, Decoded: 1, Unlisted: 4, SkippedConns: 5, Notes: []string{s, "n"},
				Conns: []jsonConn{{ID: 1, Client: s, Server: "10.0.0.1:9092", Notes: []string{s}}, {ID: 2}, {ID: 3, Notes: []string{}}}}} {
			for _, indent := range []bool{false, true} {
				want, err := json.Marshal(sum)
				if indent {
					want, err = json.MarshalIndent(sum, "", "  ")
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := sum.appendJSON(indent); string(got) != string(want) {
					t.Errorf("indent %v:\n got %s\nwant %s", indent, got, want)
				}
			}
		}
	}
}
