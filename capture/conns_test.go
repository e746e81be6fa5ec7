package capture

import (
	"net/netip"
	"testing"
)

// TestManyConnsLinear: a port scan (SYN-only connections, to the Kafka port and to others)
// costs work linear in the connections: the open list is looked at a bounded number of
// times a connection (compact's visits counted), with connections past Options.MaxConns and
// those that are not Kafka leaving it. It was a scan of every open connection for each new
// one: 25,000 connections 0.6 s, 100,000 18 s, a million ~50 minutes.
func TestManyConnsLinear(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 25_000
	}
	for _, port := range []uint16{9092, 4444} {
		o := Options{MaxConns: 1000}.withDefaults()
		d := newDecoder(testCatalog(t), o, false)
		p, err := d.newPcapReader(nil)
		if err != nil {
			t.Fatal(err)
		}
		server := netip.AddrPortFrom(netip.MustParseAddr("10.0.0.1"), port)
		for i := range n {
			client := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 16), byte(i >> 8)}), uint16(1024+i%256))
			p.packet(flowKey{src: client, dst: server}, segment{seq: uint32(i), syn: true, packet: i + 1})
			if i%7 == 0 {
				// Some end with a reset from the server.
				p.packet(flowKey{src: server, dst: client}, segment{seq: 1, rst: true, packet: i + 1})
			}
		}
		if limit := 4 * n; p.visited > limit {
			t.Errorf("port %d: %d connections: compact visited %d, over %d", port, n, p.visited, limit)
		}
		if port == 9092 && p.past != n-1000 {
			t.Errorf("%d past MaxConns, want %d", p.past, n-1000)
		}
		t.Logf("port %d: %d connections, %d visits by compact, %d left open", port, n, p.visited, len(p.open))
	}
}
