package kafka_test

import (
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/kafka"
)

func ExampleFactsOf() {
	for _, key := range []int16{kafka.KeyApiVersions, kafka.KeyProduce, kafka.KeyEnvelope} {
		f := kafka.FactsOf(key, "")
		fmt.Printf("%d %s: %s read-only %v, records %v, response header v0 %v\n", f.Key, f.Category, f.Purpose, f.ReadOnly, f.Records, f.ResponseHeaderV0)
	}
	// Output:
	// 18 Cluster and KRaft: Learn the API versions and features a broker supports; the first request on a connection. read-only true, records false, response header v0 true
	// 0 Records: Append record batches to partitions. read-only false, records true, response header v0 false
	// 58 Cluster and KRaft: Broker to controller: forward a client's request, wrapped with its principal. read-only false, records false, response header v0 false
}

// A broker that does not speak the ApiVersions version asked answers in v0 (KIP-511):
// DecodeResponse reads it so, and says why.
func ExampleCatalog_DecodeResponse() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("ApiVersions")
	req, err := cat.Encode(kafka.Message{API: api, Version: 4, CorrelationID: 1, Body: kafka.Values{}})
	if err != nil {
		log.Fatal(err)
	}
	// An old broker's answer: UNSUPPORTED_VERSION (35) and the range it speaks, in v0.
	old, err := cat.Encode(kafka.Message{API: api, Response: true, Version: 0, CorrelationID: 1, Body: kafka.Values{
		"ErrorCode": int64(35),
		"ApiKeys":   []any{kafka.Values{"ApiKey": int64(kafka.KeyApiVersions), "MinVersion": int64(0), "MaxVersion": int64(2)}},
	}})
	if err != nil {
		log.Fatal(err)
	}
	f, err := cat.DecodeResponse(old.Bytes, req, kafka.DecodeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.BaseName(), f.Body["ErrorCode"])
	fmt.Println(f.Note)
	// Output:
	// 18-ApiVersions-v0-response 35
	// the broker answers ApiVersions v4 in v0: it does not speak v4 (KIP-511)
}

func ExampleCatalog_ExampleBody() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("FindCoordinator")
	body, err := cat.ExampleBody(api, false, api.Version, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(body["KeyType"], body["CoordinatorKeys"])
	// Output:
	// 0 [payments]
}

// LoadAPI parses only what one API needs; an API whose drawing uses other APIs is left to the
// whole release.
func ExampleLoadAPI() {
	cat, api, ok := kafka.LoadAPI(schemas(), "produce", "")
	fmt.Println(ok, api.Name, len(cat.APIs), len(cat.Release.Specs), cat.Release.Name())
	_, _, ok = kafka.LoadAPI(schemas(), "ApiVersions", "")
	fmt.Println(ok)
	// Output:
	// true Produce 1 4 4.0
	// false
}
