#!/bin/sh
# gen.sh writes each form of frame.bin (the Fetch v0 response of TrackingSoft/Kafka's
# t/06_decode_encode.t, 114 bytes) as the real tool prints it. Run once from this folder
# (sh gen.sh) with xxd, bsdextrautils (hexdump), coreutils (od, base64), tshark and text2pcap
# (apt-get install -y xxd bsdextrautils tshark), python3, node, go, javac and rustc on PATH;
# the outputs are committed, and TestParseTextForms reads them back. The files of the last
# step are written in the layouts of programs not installable here (Netty's
# ByteBufUtil.prettyHexDump, Wireshark's "Copy as Hex Dump", the CodeCrafters tester's log)
# and of source code as people write it, with comments.
set -eu
xxd frame.bin > xxd.txt
xxd -p frame.bin > xxd-p.txt
xxd -i frame.bin > xxd-i.c
xxd -g1 frame.bin > xxd-g1.txt
hexdump -C frame.bin > hexdump-C.txt
od -Ax -tx1 frame.bin > od-Ax-tx1.txt
od -Ax -tx1z frame.bin > od-Ax-tx1z.txt
od -tx1 frame.bin > od-tx1-octal.txt
od -An -tx1 frame.bin > od-An-tx1.txt
base64 frame.bin > base64.txt
od -Ax -tx1 -v frame.bin | text2pcap -q -T 50000,9092 -t '%s.' - /tmp/gen-forms.pcap
# tshark -x prints the whole packet: Ethernet, IPv4, TCP, then the frame.
tshark -r /tmp/gen-forms.pcap -x 2>/dev/null > tshark-x.txt
rm -f /tmp/gen-forms.pcap
xxd frame.bin | awk '{ printf "2026-12-04 01:%02d:%02d.%03d DEBUG [kafka-io-%d] ", NR, NR*7%60, NR*37%1000, NR%3; print }' > log-xxd.txt
xxd -p -c 24 frame.bin | awk '{ printf "2026-12-04T01:00:%02dZ sent: ", NR; print }' > log-plain.txt
python3 - <<'PY'
b = open("frame.bin", "rb").read()
open("python-repr.txt", "w").write(repr(b) + "\n")
open("python-bytearray.txt", "w").write(repr(bytearray(b)) + "\n")
open("python-list.txt", "w").write(repr(list(b)) + "\n")
open("python-hex.txt", "w").write(b.hex() + "\n")
open("python-hex-space.txt", "w").write(b.hex(" ") + "\n")
open("python-hex-colon.txt", "w").write(b.hex(":") + "\n")
open("python-0x.txt", "w").write(" ".join("0x%02x" % c for c in b) + "\n")
open("python-fromhex.py", "w").write("frame = bytes.fromhex('%s')\n" % b.hex())
open("python-bytes-list.py", "w").write("frame = bytes([%s])  # the response\n" % ", ".join(str(c) for c in b))
PY
node -e '
const fs = require("fs");
const b = fs.readFileSync("frame.bin");
fs.writeFileSync("node-buffer.json", JSON.stringify(b) + "\n");
fs.writeFileSync("node-inspect-cut.txt", require("util").inspect(b) + "\n"); // Node shows 50 bytes
require("buffer").INSPECT_MAX_BYTES = 1e9;
fs.writeFileSync("node-inspect.txt", require("util").inspect(b) + "\n");
fs.writeFileSync("node-array.txt", require("util").inspect(Array.from(b), {maxArrayLength: null}) + "\n");
fs.writeFileSync("node-hex.txt", b.toString("hex") + "\n");
'
cat > /tmp/gen-forms.go <<'GO'
package main

import (
	"fmt"
	"os"
)

func main() {
	b, _ := os.ReadFile("frame.bin")
	fmt.Printf("%#v\n", b)
	fmt.Fprintln(os.Stderr, b)
}
GO
go run /tmp/gen-forms.go > go-sharp-v.txt 2> go-println.txt
rm -f /tmp/gen-forms.go
mkdir -p /tmp/gen-forms-java
cat > /tmp/gen-forms-java/G.java <<'JAVA'
import java.nio.file.*;
import java.util.Arrays;

public class G {
    public static void main(String[] a) throws Exception {
        byte[] b = Files.readAllBytes(Paths.get("frame.bin"));
        System.out.println(Arrays.toString(b));
    }
}
JAVA
javac -d /tmp/gen-forms-java /tmp/gen-forms-java/G.java
java -cp /tmp/gen-forms-java G > java-arrays-tostring.txt
rm -rf /tmp/gen-forms-java
cat > /tmp/gen-forms.rs <<'RS'
fn main() {
    let b = std::fs::read("frame.bin").unwrap();
    println!("{:?}", b);
    eprintln!("{:#04x?}", b);
    std::fs::write("rust-debug-02x.txt", format!("{:02x?}\n", b)).unwrap();
}
RS
rustc -o /tmp/gen-forms-rs /tmp/gen-forms.rs 2>/dev/null
/tmp/gen-forms-rs > rust-debug.txt 2> rust-debug-hex.txt
rm -f /tmp/gen-forms.rs /tmp/gen-forms-rs
python3 - <<'PY'
b = open("frame.bin", "rb").read()
rows = [b[i:i + 16] for i in range(0, len(b), 16)]
asc = lambda r: "".join(chr(c) if 0x20 <= c < 0x7f else "." for c in r)
hx = lambda r: " ".join("%02x" % c for c in r)
# Netty 4.1 ByteBufUtil.appendPrettyHexDump.
with open("netty.txt", "w") as f:
    f.write("         +-------------------------------------------------+\n")
    f.write("         |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |\n")
    f.write("+--------+-------------------------------------------------+----------------+\n")
    for i, r in enumerate(rows):
        f.write("|%08x| %-47s |%-16s|\n" % (i * 16, hx(r), asc(r)))
    f.write("+--------+-------------------------------------------------+----------------+\n")
# Wireshark's Copy > ...as a Hex Dump: offset, three blanks, 16 bytes, three blanks, ASCII.
with open("wireshark.txt", "w") as f:
    for i, r in enumerate(rows):
        f.write("%04x   %-47s   %s\n" % (i * 16, hx(r), asc(r)))
# The CodeCrafters Kafka tester's log (internal/test_helpers/fixtures).
with open("tester.txt", "w") as f:
    f.write('[tester::#QU6] Hexdump of received "Fetch" response: \n')
    f.write("[tester::#QU6] Idx  | Hex                                             | ASCII\n")
    f.write("[tester::#QU6] -----+-------------------------------------------------+-----------------\n")
    for i, r in enumerate(rows):
        f.write("[tester::#QU6] %04x | %-47s | %s\n" % (i * 16, hx(r), asc(r)))
    f.write("[tester::#QU6] \n")
lines = lambda fmt, per, sep=", ": [sep.join(fmt % c for c in b[i:i + per]) for i in range(0, len(b), per)]
with open("go-literal.txt", "w") as f:
    f.write("// the frame, as a test fixture writes it\nvar fetchV0Response = []byte{\n")
    for i, l in enumerate(lines("0x%02x", 8)):
        f.write("\t%s, // line %d\n" % (l, i))
    f.write("}\n")
with open("rust-literal.rs", "w") as f:
    f.write("/* Fetch v0 response */\nconst FRAME: [u8; %d] = [\n" % len(b))
    for l in lines("0x%02x_u8", 8):
        f.write("    %s,\n" % l)
    f.write("];\n")
with open("java-literal.java", "w") as f:
    f.write("byte[] frame = new byte[] {\n")
    for l in lines("(byte) 0x%02x", 8):
        f.write("    %s,\n" % l)
    f.write("};\n")
with open("js-uint8array.js", "w") as f:
    f.write("const frame = new Uint8Array([%s]); // Fetch v0\n" % ", ".join(str(c) for c in b))
with open("c-string.c", "w") as f:
    f.write("static const char frame[] =\n")
    for i in range(0, len(b), 16):
        f.write('    "%s"\n' % "".join("\\x%02x" % c for c in b[i:i + 16]))
    f.write(";\n")
with open("comments.txt", "w") as f:
    f.write("# a Fetch v0 response\n\n")
    for i, r in enumerate(rows):
        f.write("%s  // row %d\n" % (hx(r), i))
        if i == 2:
            f.write("/* a comment\n   over two lines */\n\n")
with open("go-chars.txt", "w") as f:
    # sarama's tests write names as character literals.
    f.write("fetchV0Response = []byte{\n")
    for i in range(0, len(b), 8):
        f.write("\t" + ", ".join("'%s'" % chr(c) if chr(c).isascii() and chr(c).isalnum() else "0x%02x" % c for c in b[i:i + 8]) + ",\n")
    f.write("}\n")
with open("prose-header.txt", "w") as f:
    f.write("SOURCE: a bug report\nWHAT: a Fetch v0 response\n\n" + b.hex() + "\n")
PY
