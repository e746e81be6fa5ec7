package kafka

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/suggest"
)

// UnknownAPI is the error for an API name or key the catalogue lacks ("no API "Foo" in Kafka
// 4.0"): it names the releases that have the API when another release does (KnownAPI), else
// suggests the nearest name of this release. A caller says where it was given:
// fmt.Errorf("-api: %w", c.UnknownAPI(name)).
func (c *Catalog) UnknownAPI(nameOrKey string) error {
	msg := fmt.Sprintf("no API %q in Kafka %s", nameOrKey, c.Release.Name())
	if key, names, rels, ok := KnownAPI(nameOrKey); ok && len(rels) > 0 {
		return fmt.Errorf("%s; API key %d (%s) is in Kafka %s: try -release %s", msg, key, strings.Join(names, ", "),
			strings.Join(rels, ", "), rels[len(rels)-1])
	}
	names := make([]string, 0, len(c.APIs))
	for _, a := range c.APIs {
		names = append(names, a.Name)
	}
	if s := suggest.Closest(nameOrKey, names); s != "" {
		return fmt.Errorf("%s; did you mean %s?", msg, s)
	}
	return fmt.Errorf("%s (kafkagrid list shows them)", msg)
}
