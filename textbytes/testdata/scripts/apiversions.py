#!/usr/bin/env python3
"""Send an ApiVersions request to a broker and print the answer."""
import socket
import struct

HOST, PORT = "localhost", 9092

# ApiVersions v0 request, correlation id 1, client id "kg"
request = bytes([
    0x00, 0x00, 0x00, 0x0c,  # size
    0x00, 0x12, 0x00, 0x00,  # api key 18, version 0
    0x00, 0x00, 0x00, 0x01,  # correlation id
    0x00, 0x02, 0x6b, 0x67,  # client id "kg"
])

def main():
    with socket.create_connection((HOST, PORT)) as s:
        s.sendall(request)
        size = struct.unpack(">i", s.recv(4))[0]
        print(s.recv(size))

if __name__ == "__main__":
    main()
