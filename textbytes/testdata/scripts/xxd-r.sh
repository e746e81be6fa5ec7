#!/bin/sh
# ApiVersions v0 to a local broker, the reply as a dump
echo '00 00 00 0c 00 12 00 00 00 00 00 01 00 02 6b 67' | xxd -r -p | nc -q 1 localhost 9092 | xxd
