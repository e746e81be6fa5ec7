package kafka

import (
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// TestTaggedFieldsSeen: every message that declares tagged fields (in its body) has an example
// at some valid version of the newest release with at least one of them set, so its pages can
// show a non-empty tag section. Kafka writes a tagged field only when it differs from its
// default, so the examples set one on purpose (examples/kafka/*.yaml).
func TestTaggedFieldsSeen(t *testing.T) {
	rels := testReleases(t)
	rel := rels[len(rels)-1]
	c := testCatalog(t, rel)
	known := sync.OnceValue(loadKnownFields)
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
				f.Root.Walk(func(n *Node) bool {
					if n.Kind == KindTagKey && !strings.HasPrefix(n.Path, "header") {
						found = true
					}
					return !found
				})
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
