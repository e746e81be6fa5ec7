# An ApiVersions v0 request written with the types of a Python Kafka client, as its tests do.
import io
import struct

from aiokafka.protocol.types import Int16, Int32, String


def test_api_versions_request() -> None:
    encoded = b"".join(
        [
            Int32.encode(12),  # Size
            Int16.encode(18),  # ApiKey (ApiVersions)
            Int16.encode(0),  # ApiVersion
            struct.pack(">i", 1),  # CorrelationId
            String("utf-8").encode("kg"),  # ClientId
        ]
    )
    assert len(encoded) == 16
    assert io.BytesIO(encoded).read(4) == b"\x00\x00\x00\x0c"
