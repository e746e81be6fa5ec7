import socket, struct
# ApiVersions v0, correlation id 1
header = b'\x00\x12\x00\x00' \
         b'\x00\x00\x00\x01'
client = b'\x00\x02kg'
msg = header + client
sock = socket.create_connection(("localhost", 9092))
sock.sendall(struct.pack(">i", len(msg)) + msg)
expected = b'\x00\x00\x00\x01\x00\x00'
