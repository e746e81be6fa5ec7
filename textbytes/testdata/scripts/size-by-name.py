import struct
from kafka.protocol.types import Int16, Int32, String

body = b"".join([Int16.encode(18), Int16.encode(0), Int32.encode(1), String("utf-8").encode("kg")])
frame = b"".join([
    Int32.encode(len(body)),
    Int16.encode(18),
    Int16.encode(0),
    Int32.encode(1),
])
