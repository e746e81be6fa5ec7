import socket


def unhex(parts):
    return bytes(int(x, 16) for part in parts for x in part.split())


sock = socket.create_connection(("localhost", 9092))

# an older attempt, kept for reference:
# sock.send(unhex(["00 00 00 08", "00 12 00 00", "00 00 00 09"]))

sock.send(unhex([
    "00 00 00 0c",  # size

    "00 12",  # api key
    "00 00",  # api version
    "00 00 00 01",  # correlation id

    # client id
    "00 02",
    "6b 67",
]))
print(sock.recv(64).hex(" "))
