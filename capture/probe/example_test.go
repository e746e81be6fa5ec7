package probe_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/capture/probe"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/twmb/franz-go/pkg/kfake"
)

// ExampleDial asks a broker (here franz-go's kfake, in process) which versions it speaks and
// sends the Metadata example at the highest version both sides speak, as kafkagrid probe does.
func ExampleDial() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		log.Fatal(err)
	}
	broker, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "orders"))
	if err != nil {
		log.Fatal(err)
	}
	defer broker.Close()
	cl, err := probe.Dial(context.Background(), cat, broker.ListenAddrs()[0], probe.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.Versions(); err != nil {
		log.Fatal(err)
	}
	md, _ := cat.Lookup("Metadata")
	v, ok, err := cl.Version(md)
	if err != nil || !ok {
		log.Fatal(err, cl.Conn().Notes)
	}
	e, err := cl.Send(md, v, nil) // nil: the Metadata example (kafka.Catalog.ExampleBody)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range cl.Conn().Exchanges {
		fmt.Println(e.Request.Frame.BaseName(), "→", e.Response.Frame.BaseName(), e.Response.Err)
	}
	fmt.Println(e.Response.Frame.Body["Topics"].([]any)[0].(kafka.Values)["Name"])
	// Output:
	// 18-ApiVersions-v4-request → 18-ApiVersions-v4-response <nil>
	// 3-Metadata-v13-request → 3-Metadata-v13-response <nil>
	// orders
}
