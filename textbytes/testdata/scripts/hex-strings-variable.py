def encode(lines):
    return bytes(int(x, 16) for line in lines for x in line.split(" "))

corr = "00 00 00 01"
frame = encode([
    "00 00 00 0c",
    "00 12 00 00",
    corr,
    "00 02 6b 67",
])
