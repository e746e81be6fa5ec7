const net = require('net');
// ApiVersions v0
const buf = Buffer.alloc(16);
buf.writeInt32BE(12, 0);
buf.writeInt16BE(18, 4);
buf.writeInt16BE(0, 6);
buf.writeInt32BE(1, 8);
buf.writeInt16BE(2, 12);
buf.write('kg', 14);
const sock = net.connect(9092, 'localhost', () => sock.write(buf));
