package kafka_test

import (
	"fmt"
	"log"
	"os"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// schemas finds the 4.0 schemas for the examples (internal/testenv: $KAFKA_SCHEMAS, else
// ../shared/kafka-schemas beside the module root).
func schemas() string {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	return dir
}

func ExampleCatalog_Encode() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("FindCoordinator")
	body, _, err := kafka.Example(api, false, api.Version, "", nil)
	if err != nil {
		log.Fatal(err)
	}
	f, err := cat.Encode(kafka.Message{API: api, Version: api.Version, CorrelationID: 7, ClientID: "kafkagrid", Body: body})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.BaseName(), len(f.Bytes), "bytes")
	fmt.Printf("% x\n", f.Bytes)
	for _, n := range f.Root.Leaves() {
		fmt.Printf("%2d %-28s %-8s %s\n", n.Offset, n.Path, n.WireType, n.Value)
	}
	// Output:
	// 10-FindCoordinator-v6-request 36 bytes
	// 00 00 00 20 00 0a 00 06 00 00 00 07 00 09 6b 61 66 6b 61 67 72 69 64 00 00 02 09 70 61 79 6d 65 6e 74 73 00
	//  0 #size                        int32    32 bytes
	//  4 header.RequestApiKey         int16    10 → FindCoordinator
	//  6 header.RequestApiVersion     int16    6
	//  8 header.CorrelationId         int32    7
	// 12 header.ClientId#length       int16    9
	// 14 header.ClientId#data         utf8     "kafkagrid"
	// 23 header#tags                  uvarint  0 → none
	// 24 KeyType                      int8     0 → GROUP
	// 25 CoordinatorKeys#length       uvarint  2 → 1 element
	// 26 CoordinatorKeys[0]#length    uvarint  9 → length 8
	// 27 CoordinatorKeys[0]#data      utf8     "payments"
	// 35 body#tags                    uvarint  0 → none
}

func ExampleCatalog_Decode() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	// A Heartbeat v4 request, cut short inside its member id.
	frame := []byte{
		0, 0, 0, 40, 0, 12, 0, 4, 0, 0, 0, 7, 0, 9, 'k', 'a', 'f', 'k', 'a', 'g', 'r', 'i', 'd', 0,
		9, 'p', 'a', 'y', 'm', 'e', 'n', 't', 's', 0, 0, 0, 3, 21, 'c', 'o', 'n',
	}
	f, err := cat.Decode(frame, kafka.DecodeOptions{})
	fmt.Println(err)
	frame[3] = byte(len(frame) - 4) // now the size agrees with the bytes
	f, err = cat.Decode(frame, kafka.DecodeOptions{})
	fmt.Println(err)
	fmt.Println(f.Body["GroupId"], f.Body["GenerationId"])
	// Output:
	// kafka: Heartbeat v4 request: #size: offset 0: size 40 exceeds the 37 bytes left
	// kafka: Heartbeat v4 request: MemberId#length: offset 37: length 20 exceeds the 3 bytes left
	// payments 3
}

func ExampleWriteText() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("Heartbeat")
	body, _, _ := kafka.Example(api, true, api.Version, "", nil)
	f, err := cat.Encode(kafka.Message{API: api, Response: true, Version: api.Version, CorrelationID: 7, Body: body})
	if err != nil {
		log.Fatal(err)
	}
	kafka.WriteText(os.Stdout, f.Root)
	// Output:
	// offset  len  type                     node
	//      0   16  frame                    frame = Heartbeat v4 response
	//      0    4  int32                      size = 12 bytes
	//      4    5  struct                     header = ResponseHeader v1
	//      4    4  int32                        CorrelationId = 7
	//      8    1  uvarint                      tagged fields = 0 → none
	//      9    7  struct                     body = HeartbeatResponse v4
	//      9    4  int32                        ThrottleTimeMs = 0
	//     13    2  int16                        ErrorCode = 0 → NONE
	//     15    1  uvarint                      tagged fields = 0 → none
}

func ExampleExample() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	api, _ := cat.Lookup("Heartbeat")
	overrides := []byte("request:\n  GenerationId: 12\n  GroupInstanceId: null\n")
	body, _, err := kafka.Example(api, false, api.Version, "Heartbeat.yaml", overrides)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(body["GroupId"], body["GenerationId"], body["MemberId"], body["GroupInstanceId"])

	_, _, err = kafka.Example(api, false, api.Version, "Heartbeat.yaml", []byte("request:\n  Generation: 12\n"))
	fmt.Println(err)
	// Output:
	// payments 12 consumer-kafkagrid-1 <nil>
	// kafka: Heartbeat.yaml:2: Generation: unknown field (no version of HeartbeatRequest has it, in Kafka 4.0 or in the releases kafkagrid knows: 2.2 2.4 2.8 3.0 3.3 3.6 3.9 4.0 4.1)
}

func ExampleCatalog_Vectors() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range vs[:3] {
		fmt.Println(v.Request.BaseName(), len(v.Request.Bytes), v.Response.BaseName(), len(v.Response.Bytes))
	}
	// Output:
	// 0-Produce-v12-request 166 0-Produce-v12-response 57
	// 1-Fetch-v17-request 106 1-Fetch-v17-response 261
	// 2-ListOffsets-v10-request 61 2-ListOffsets-v10-response 51
}
