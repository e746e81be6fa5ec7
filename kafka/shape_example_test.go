package kafka_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// A body alone, as a test fixture keeps it (sarama's ApiVersions v3 response): no size, no
// header; the API and version are given.
func ExampleShape() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := kafka.LoadCatalog(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	api, _ := c.Lookup("ApiVersions")
	body := []byte{0, 0, 2, 0, 3, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0}
	f, err := c.Decode(body, kafka.DecodeOptions{Response: true, API: api, Version: 3, Shape: kafka.ShapeBody})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Root.Value, "·", kafka.ShapeBody)
	fmt.Println(f.Body["ApiKeys"])
	// Output:
	// ApiVersions v3 response · body only (no size, no header)
	// [map[ApiKey:3 MaxVersion:1 MinVersion:2]]
}
