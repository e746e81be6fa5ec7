// ApiVersions v0, joined from its parts
const net = require('net');

const frame = Buffer.concat([
  Buffer.from('0000000c', 'hex'), // size
  Buffer.from([0x00, 0x12, 0x00, 0x00]), // api key, version
  Buffer.from([0, 0, 0, 1]), // correlation id
  Buffer.from('00026b67', 'hex'), // client id
]);
const sock = net.connect(9092, 'localhost', () => sock.write(frame));
sock.on('data', (d) => { console.log(d.toString('hex')); sock.end(); });
