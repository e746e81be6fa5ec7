#!/bin/sh
# capture.sh makes lo.pcap, the real packets the specdec tests read, and lo.json, tshark's
# decoding of them, the oracle the tests compare with. Run as root on Linux, with tcpdump,
# tshark, python3 and curl installed:
#
#	cd bytegrid/specdec/testdata && sh capture.sh
#
# It captures on the loopback interface an HTTP exchange over 127.0.0.1 (python3's
# http.server and curl: SYNs with 20 bytes of TCP options, data segments with 12) and DNS
# queries and answers over UDP (a small DNS responder in python3 and queries sent to it), then
# writes tshark's JSON of every packet. The kernel writes every header.
set -eu
HTTP=18080
DNS=15353
rm -f lo.pcap lo.json
tcpdump -i lo -U -w lo.pcap "host 127.0.0.1 and (tcp port $HTTP or udp port $DNS)" 2>/dev/null &
DUMP=$!
sleep 1
python3 -m http.server -b 127.0.0.1 $HTTP >/dev/null 2>&1 &
WEB=$!
python3 - "$DNS" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
for _ in range(2):
    q, peer = s.recvfrom(512)
    # An answer: the query's id and question, QR, RD and RA set, one A record 127.0.0.1.
    a = q[:2] + b"\x81\x80" + q[4:6] + b"\x00\x01\x00\x00\x00\x00" + q[12:]
    a += b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04\x7f\x00\x00\x01"
    s.sendto(a, peer)
PY
RESP=$!
# Wait for the server to listen.
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	if python3 -c "import socket; socket.create_connection(('127.0.0.1', $HTTP)).close()" 2>/dev/null; then
		break
	fi
	sleep 1
done
curl -s -o /dev/null "http://127.0.0.1:$HTTP/"
curl -s -o /dev/null -H "X-Test: a longer request" "http://127.0.0.1:$HTTP/capture.sh"
python3 - "$DNS" <<'PY'
import socket, struct, sys
for i, name in enumerate([b"example.com", b"www.kafka.apache.org"]):
    q = struct.pack(">HHHHHH", 0x1234 + i, 0x0100, 1, 0, 0, 0)
    for label in name.split(b"."):
        q += bytes([len(label)]) + label
    q += b"\x00\x00\x01\x00\x01"
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(10)
    s.sendto(q, ("127.0.0.1", int(sys.argv[1])))
    s.recvfrom(512)
PY
sleep 1
kill $WEB $DUMP
wait $RESP 2>/dev/null || true
wait $DUMP 2>/dev/null || true
tshark -r lo.pcap -T json -d udp.port==$DNS,dns > lo.json
echo "$(tshark -r lo.pcap | wc -l) packets"
