import socket

client = "kg"
frame = (
    (12).to_bytes(4, "big")
    + int.to_bytes(18, 2, byteorder="big")
    + (0).to_bytes(2, "big")
    + (1).to_bytes(4, "big", signed=True)
    + bytes.fromhex("0002")
    + "kg".encode()
)
with socket.create_connection(("localhost", 9092)) as s:
    s.sendall(frame)
