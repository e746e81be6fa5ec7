import socket
def req(corr):
    return bytes([0, 0, 0, 12, 0, 18, 0, 0, 0, 0, 0, corr, 0, 2, 0x6b, 0x67])
s = socket.socket()
s.connect(("localhost", 9092))
s.send(req(1))
