package reference

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// newContent encodes an API's example request and response and lays them out.
func newContent(a *kafka.API, f Format) (*apiContent, error) {
	return nil, fmt.Errorf("reference: %s: the encoder is not wired in yet", a.Name)
}
