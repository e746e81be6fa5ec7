SOURCE: github.com/dpkp/kafka-python, test/test_protocol.py (commit de2f81361e682745cf8c0dcda5cdcc26d67dc15d), test_decode_consumer_metadata_response (ConsumerMetadataResponse, Kafka's GroupCoordinator/FindCoordinator v0): a b"".join of struct.pack calls, no size prefix
WHAT: FindCoordinator v0 response without its size prefix: correlation id 42, ErrorCode 0, NodeId 1, Host 'brokers1.kafka.rdio.com', Port 1000

        encoded = b"".join([
            struct.pack(">i", 42),                                 # Correlation ID
            struct.pack(">h", 0),                                  # No Error
            struct.pack(">i", 1),                                  # Broker ID
            struct.pack(">h23s", 23, b"brokers1.kafka.rdio.com"),  # Broker Host
            struct.pack(">i", 1000),                               # Broker Port
        ])
