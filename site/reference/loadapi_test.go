package reference

import (
	"bytes"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestShowLoadAPI: an API loaded alone (kafka.LoadAPI) shows byte for byte what the whole
// release's catalogue shows, for every API LoadAPI takes in two releases; ApiVersions (where
// its keys are named ApiKey, shown with every API's name) and Envelope are left to the whole
// release.
func TestShowLoadAPI(t *testing.T) {
	rels := []string{"2.2", "4.0"}
	if testing.Short() { // the race pass: one release
		rels = rels[1:]
	}
	for _, rel := range rels {
		dir := testenv.Release(t, rel)
		whole, err := kafka.LoadCatalog(dir)
		if err != nil {
			t.Fatal(err)
		}
		alone := 0
		for _, a := range whole.APIs {
			cat, one, ok := kafka.LoadAPI(dir, a.Name, "")
			// 2.2's ApiVersions response calls its keys Index: named by number, not by API.
			if want := a.Name == "ApiVersions" && rel != "2.2" || a.Name == "Envelope"; ok == want {
				t.Errorf("%s %s: LoadAPI ok %v", rel, a.Name, ok)
			}
			if !ok {
				continue
			}
			alone++
			if one.Name != a.Name || one.Key != a.Key || one.Version != a.Version || one.Category != a.Category || one.Release != a.Release {
				t.Errorf("%s: LoadAPI %+v, the catalogue %+v", rel, *one, *a)
			}
			formats := []ShowOptions{{Format: SVG}}
			if a.Key%8 == 0 { // a few in every form
				formats = append(formats, ShowOptions{Format: Text}, ShowOptions{Format: JSON, Response: true}, ShowOptions{Format: SVG, Tree: true, Response: true})
			}
			for _, o := range formats {
				var want, got bytes.Buffer
				if err := Show(&want, whole, a, o); err != nil {
					t.Fatal(err)
				}
				if err := Show(&got, cat, one, o); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s %s %+v: differs at %s", rel, a.Name, o, testenv.FirstDiff(want.Bytes(), got.Bytes()))
				}
			}
		}
		if alone < len(whole.APIs)-2 {
			t.Errorf("%s: %d APIs of %d loaded alone", rel, alone, len(whole.APIs))
		}
		for _, q := range []string{"0", "produce", "ProduceResponse", "FETCHREQUEST"} {
			if _, a, ok := kafka.LoadAPI(dir, q, "x"); !ok || a.Release != "x" {
				t.Errorf("%s: LoadAPI(%q): %v", rel, q, ok)
			}
		}
		for _, q := range []string{"Nope", "999", ""} {
			if _, _, ok := kafka.LoadAPI(dir, q, ""); ok {
				t.Errorf("%s: LoadAPI(%q) ok", rel, q)
			}
		}
	}
}
