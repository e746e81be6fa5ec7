package capture

import (
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

var (
	catOnce sync.Mutex
	cat40   *kafka.Catalog
)

// testCatalog loads Kafka 4.0's catalogue once (internal/testenv finds the schemas).
func testCatalog(t testing.TB) *kafka.Catalog {
	t.Helper()
	catOnce.Lock()
	defer catOnce.Unlock()
	if cat40 == nil {
		c, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
		if err != nil {
			t.Fatal(err)
		}
		cat40 = c
	}
	return cat40
}
