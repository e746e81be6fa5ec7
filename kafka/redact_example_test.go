package kafka_test

import (
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// A SaslAuthenticate request carrying a SASL PLAIN token: Redact replaces the password in the
// decoded frame's bytes and values, and says what it replaced.
func ExampleRedact() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("SaslAuthenticate")
	sent, err := cat.Encode(kafka.Message{API: api, Version: 2, CorrelationID: 4, Body: kafka.Values{"AuthBytes": []byte("\x00alice\x00s3cret")}})
	if err != nil {
		log.Fatal(err)
	}
	f, err := cat.Decode(sent.Bytes, kafka.DecodeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(kafka.Redact(f))
	fmt.Printf("%q\n", f.Bytes[16:])
	fmt.Printf("%q\n", sent.Bytes[16:])
	// Output:
	// [SaslAuthenticate v2 request AuthBytes: the SASL PLAIN password (6 bytes) redacted]
	// "\x00alice\x00******\x00"
	// "\x00alice\x00s3cret\x00"
}
