package kafka

import (
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// TestTaggedFieldsSeen: every message that declares tagged fields (in its body) has an example
// at some valid version of the newest release, or an edge case (EdgeCases), with at least one
// of them set, so its pages can show a non-empty tag section. Kafka writes a tagged field only when it differs from its
// default, so the examples set one on purpose (examples/kafka/*.yaml).
func TestTaggedFieldsSeen(t *testing.T) {
	rels := testReleases(t)
	rel := rels[len(rels)-1]
	c := testCatalog(t, rel)
	known := sync.OnceValue(loadKnownFields)
	edges, err := c.EdgeCases()
	if err != nil {
		t.Fatal(err)
	}
	declared, seen := 0, 0
	var missing []string
	for _, api := range c.APIs {
		for _, resp := range []bool{false, true} {
			spec := api.Request
			if resp {
				spec = api.Response
			}
			tagged := false
			spec.Walk(func(f *schemas.Field) bool {
				if f.HasTag {
					tagged = true
				}
				return !tagged
			})
			if !tagged {
				continue
			}
			declared++
			found := false
			for _, e := range edges {
				f := e.Request
				if resp {
					f = e.Response
				}
				if e.API == api && f != nil && hasBodyTag(f) {
					found = true
				}
			}
			lo, _ := spec.ValidVersions.Lowest()
			for v := api.Version; v >= lo && !found; v-- {
				if !spec.ValidIn(v) || !spec.FlexibleIn(v) {
					continue
				}
				body := storyExample(t, api, resp, v, known)
				f, err := c.Encode(Message{API: api, Response: resp, Version: v, CorrelationID: CorrelationID, ClientID: exampleClientID, Body: body})
				if err != nil {
					t.Fatal(err)
				}
				found = hasBodyTag(f)
			}
			if found {
				seen++
			} else {
				missing = append(missing, spec.Name)
			}
		}
	}
	t.Logf("Kafka %s: %d messages declare tagged fields; %d have an example with one set", rel, declared, seen)
	if len(missing) > 0 {
		t.Errorf("no example sets a tagged field of: %s", strings.Join(missing, ", "))
	}
}

// hasBodyTag reports whether a frame's body writes a tagged field.
func hasBodyTag(f *Frame) bool {
	body := f.Root.Children[len(f.Root.Children)-1]
	found := false
	body.Walk(func(n *Node) bool {
		found = found || n.Kind == KindTagKey
		return !found
	})
	return found
}
