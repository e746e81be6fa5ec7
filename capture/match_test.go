package capture

import (
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestMatchRelease: a broker answering ApiVersions with exactly a release's broker APIs is
// that release, every key alike; one key's range changed, or a key added, is named as the
// difference; among several releases, the one with the most keys alike wins.
func TestMatchRelease(t *testing.T) {
	var rels []Release
	for _, name := range []string{"4.1", "4.0", "3.9", "2.4"} {
		c, err := kafka.LoadCatalog(testenv.Release(t, name))
		if err != nil {
			t.Fatal(err)
		}
		rels = append(rels, Release{Name: name, Catalog: c})
	}
	for _, r := range rels {
		broker := brokerVersions(r.Catalog)
		// Kafka's own ApiVersions answer lists the broker's APIs, not the controller's.
		if _, ok := broker[kafka.KeyApiVersions]; !ok {
			t.Fatalf("%s: no ApiVersions among the broker's APIs", r.Name)
		}
		m, ok := MatchRelease(broker, rels)
		if !ok || m.Release != r.Name || len(m.Diffs) != 0 || m.Same != len(broker) {
			t.Errorf("%s's own versions: %+v", r.Name, m)
		}
		// One range widened, one key no release has.
		fetch := broker[1]
		broker[1] = [2]int16{fetch[0], fetch[1] + 1}
		broker[999] = [2]int16{0, 0}
		m, _ = MatchRelease(broker, rels)
		lines := strings.Join(m.Summary(), "\n")
		if m.Release != r.Name || len(m.Diffs) != 2 || m.Same != len(broker)-2 ||
			!strings.Contains(lines, "Fetch (key 1): the broker ") || !strings.Contains(lines, "unknown API (key 999): the broker 0-0, Kafka "+r.Name+" none") {
			t.Errorf("%s with Fetch widened and key 999: %s", r.Name, lines)
		}
	}
	if _, ok := MatchRelease(nil, rels); ok {
		t.Error("no versions matched a release")
	}
}
