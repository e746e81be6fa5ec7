package capture

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// ReleaseMatch is the release whose API versions a broker's (its ApiVersions answer) match
// best, among the releases kafkagrid knows, and the keys where they differ.
type ReleaseMatch struct {
	Release string
	Same    int // API keys with the same versions in both
	Keys    int // API keys in either
	Diffs   []VersionDiff
}

// VersionDiff is an API key whose versions differ between the broker and the release; a side
// without the key has ok false.
type VersionDiff struct {
	Key                 int16
	Name                string // the API's name, "" when no release names the key
	Broker, Release     [2]int16
	InBroker, InRelease bool
}

// MatchRelease returns the release among rels whose API keys and versions match the broker's
// best: the most keys with the same versions, then the fewest that differ, then the first
// (rels newest first). A release's keys are those a broker answers ApiVersions with, as
// Kafka's ApiKeys.apisForListener(BROKER) picks them: the requests whose spec lists the
// "broker" listener, or every request of a release whose specs name no listeners (before
// Kafka 2.8). ok is false when there is nothing to match (no versions, no release).
func MatchRelease(broker map[int16][2]int16, rels []Release) (m ReleaseMatch, ok bool) {
	if len(broker) == 0 {
		return m, false
	}
	for _, r := range rels {
		c := compareVersions(r.Name, broker, brokerVersions(r.Catalog))
		if !ok || c.Same > m.Same || c.Same == m.Same && len(c.Diffs) < len(m.Diffs) {
			m, ok = c, true
		}
	}
	return m, ok
}

// brokerVersions are the API keys and versions a broker of the catalogue's release answers
// ApiVersions with (see MatchRelease).
func brokerVersions(c *kafka.Catalog) map[int16][2]int16 {
	listeners := false
	for _, a := range c.APIs {
		if a.Request != nil && len(a.Request.Listeners) > 0 {
			listeners = true
		}
	}
	out := map[int16][2]int16{}
	for _, a := range c.APIs {
		s := a.Request
		if s == nil || !s.ValidVersions.Set || listeners && !slices.Contains(s.Listeners, "broker") {
			continue
		}
		out[a.Key] = [2]int16{int16(s.ValidVersions.Lo), int16(s.ValidVersions.Hi)}
	}
	return out
}

func compareVersions(name string, broker, rel map[int16][2]int16) ReleaseMatch {
	m := ReleaseMatch{Release: name}
	keys := slices.Sorted(maps.Keys(broker))
	for k := range rel {
		if _, in := broker[k]; !in {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	m.Keys = len(keys)
	for _, k := range keys {
		b, inB := broker[k]
		r, inR := rel[k]
		if inB && inR && b == r {
			m.Same++
			continue
		}
		d := VersionDiff{Key: k, Broker: b, Release: r, InBroker: inB, InRelease: inR}
		if _, names, _, ok := kafka.KnownAPI(strconv.Itoa(int(k))); ok && len(names) > 0 {
			d.Name = names[len(names)-1] // its latest name
		}
		m.Diffs = append(m.Diffs, d)
	}
	return m
}

// String says the match in a line: "the broker's API versions match Kafka 4.1 best: 74 of 76
// API keys alike".
func (m ReleaseMatch) String() string {
	s := fmt.Sprintf("the broker's API versions match Kafka %s best: %d of %d API keys alike", m.Release, m.Same, m.Keys)
	if len(m.Diffs) == 0 {
		s = fmt.Sprintf("the broker's API versions are Kafka %s's: all %d API keys alike", m.Release, m.Keys)
	}
	return s
}

// String says where the broker and the release differ at one key: "Fetch (key 1): the broker
// 4-18, Kafka 4.1 4-17".
func (d VersionDiff) String(release string) string {
	side := func(in bool, v [2]int16) string {
		if !in {
			return "none"
		}
		return strconv.Itoa(int(v[0])) + "-" + strconv.Itoa(int(v[1]))
	}
	name := d.Name
	if name == "" {
		name = "unknown API"
	}
	return fmt.Sprintf("%s (key %d): the broker %s, Kafka %s %s", name, d.Key, side(d.InBroker, d.Broker), release, side(d.InRelease, d.Release))
}

// Summary is the match and its differences, a line each.
func (m ReleaseMatch) Summary() []string {
	out := []string{m.String()}
	for _, d := range m.Diffs {
		out = append(out, "differs: "+d.String(m.Release))
	}
	return out
}
