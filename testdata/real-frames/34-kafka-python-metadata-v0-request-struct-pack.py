SOURCE: github.com/dpkp/kafka-python, test/test_protocol.py (commit de2f81361e682745cf8c0dcda5cdcc26d67dc15d), test_encode_metadata_request_with_topics: the expected bytes as a b"".join of struct.pack calls
WHAT: Metadata v0 request, correlation id 4, ClientId cid, topics 't1' and 't2'

        expected = b"".join([
            struct.pack(">i", 25),         # Total length of the request
            struct.pack('>h', 3),          # API key metadata fetch
            struct.pack('>h', 0),          # API version
            struct.pack('>i', 4),          # Correlation ID
            struct.pack('>h3s', 3, b"cid"),# The client ID
            struct.pack('>i', 2),          # Number of topics in the request
            struct.pack('>h2s', 2, b"t1"), # Topic "t1"
            struct.pack('>h2s', 2, b"t2"), # Topic "t2"
        ])
