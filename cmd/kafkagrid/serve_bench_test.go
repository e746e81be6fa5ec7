package main

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/diagram"
)

// cpuTime is the process's user and system CPU time so far: on a shared host the wall time of
// a benchmark follows the load, its CPU time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchServer is the server's handler on a loopback listener, with serve's default limits.
func benchServer(b *testing.B) (*httptest.Server, []byte) {
	b.Helper()
	k := diagram.NewHandler(&diagram.Drawer{}, diagram.Limits{MaxInflight: 4})
	k.ErrorLog = log.New(io.Discard, "", 0)
	srv := httptest.NewServer(k)
	b.Cleanup(srv.Close)
	spec, err := os.ReadFile(filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return srv, spec
}

func postIPv4(b *testing.B, c *http.Client, url string, spec []byte) {
	resp, err := c.Post(url, "text/plain", bytes.NewReader(spec))
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n < 1000 {
		b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
	}
}

// BenchmarkServeIPv4 is one round trip of the IPv4 grid (examples/protocols/ipv4.yaml) to the
// server over loopback TCP, one request at a time: POST /bytegrid/svg, the SVG read whole.
// cpu-ns/op is the CPU of client and server together.
func BenchmarkServeIPv4(b *testing.B) {
	srv, spec := benchServer(b)
	c := srv.Client()
	url := srv.URL + "/bytegrid/svg"
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		postIPv4(b, c, url, spec)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkServeIPv4Parallel is the same from as many clients as GOMAXPROCS (and 4 times as
// many connections); req/s is the server's throughput.
func BenchmarkServeIPv4Parallel(b *testing.B) {
	srv, spec := benchServer(b)
	c := srv.Client()
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 64 // keep every client's connection
	url := srv.URL + "/bytegrid/svg"
	b.ReportAllocs()
	b.SetParallelism(4)
	cpu := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			postIPv4(b, c, url, spec)
		}
	})
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
