package capture

import (
	"fmt"
	"io"
	"runtime/debug"
	"sync"
)

// Options.Pipeline: Stream's work on three goroutines, so that a capture decodes on two cores.
//
//	reader:    packets, reassembly, pairing, the requests decoded  ─┐ jobs, in order
//	responses: each paired response decoded (its own kafka.Decoder) ─┤ out, in order
//	Stream's:  the connections' notes added, each called             ◀┘
//
// Every exchange and note goes through both queues in the order the serial Stream meets them,
// so each is called with the same exchanges in the same order, and a connection's notes are
// added between the same calls; a redaction's note keeps its frame's place (decoder.seq).
// Memory: at most pipeExchanges jobs and pipeBytes of their frames are in the queues (an
// exchange larger than that goes alone), on top of what the serial Stream holds.

// The bounds of what a pipeline's queues hold, and the jobs the reader passes on at once.
const (
	pipeExchanges = 64
	pipeBytes     = 8 << 20
	pipeBatch     = 16
)

// pipeJob is an exchange on its way to each (its response still to decode when resp is set),
// or a note of connection c.
type pipeJob struct {
	c    *Conn
	e    *Exchange
	resp *Message // to decode as e's response, with frame number seq
	seq  int
	note string
}

// size is the bytes of the job's frames.
func (j *pipeJob) size() int {
	n := 0
	if j.e != nil && j.e.Request != nil {
		n += len(j.e.Request.Bytes)
	}
	if j.e != nil && j.e.Response != nil {
		n += len(j.e.Response.Bytes)
	}
	if j.resp != nil {
		n += len(j.resp.Bytes)
	}
	return n
}

type pipeline struct {
	// The jobs go in batches of up to pipeBatch: a goroutine woken for each job (from
	// sleep, on a machine with a core free) cost some 7 µs an exchange.
	jobs, out chan []pipeJob
	batch     []pipeJob // the reader's, not yet passed on
	dec       *decoder  // the responses' decoder

	mu       sync.Mutex
	cond     sync.Cond
	n, bytes int  // jobs and their bytes in the queues
	stopped  bool // each failed, or the context is done: the reader stops at its next send
}

// send queues a job from the reader, waiting while the queues are full; once the pipeline
// has stopped, it drops the job and stops the reader (p.err).
func (p *pcapReader) send(j pipeJob) {
	if p.err != nil {
		return
	}
	pl, size := p.pipe, j.size()
	pl.mu.Lock()
	full := func() bool { return !pl.stopped && pl.n > 0 && (pl.n >= pipeExchanges || pl.bytes+size > pipeBytes) }
	if full() {
		pl.mu.Unlock()
		pl.flush() // the jobs held here must go on for the queues to empty
		pl.mu.Lock()
		for full() {
			pl.cond.Wait()
		}
	}
	stopped := pl.stopped
	if !stopped {
		pl.n++
		pl.bytes += size
	}
	pl.mu.Unlock()
	if stopped {
		p.err = errStop
		return
	}
	if pl.batch = append(pl.batch, j); len(pl.batch) >= pipeBatch {
		pl.flush()
	}
}

// flush passes the reader's batch on: when full, before the reader waits for room or for its
// input (so that a capture read live from a pipe is written as it comes), and at the end.
func (pl *pipeline) flush() {
	if len(pl.batch) > 0 {
		pl.jobs <- pl.batch // never blocks: the channel holds pipeExchanges batches
		pl.batch = make([]pipeJob, 0, pipeBatch)
	}
}

// done takes a job out of the queues' count.
func (pl *pipeline) done(j *pipeJob) {
	pl.mu.Lock()
	pl.n--
	pl.bytes -= j.size()
	pl.cond.Signal()
	pl.mu.Unlock()
}

func (pl *pipeline) stop() {
	pl.mu.Lock()
	pl.stopped = true
	pl.cond.Broadcast()
	pl.mu.Unlock()
}

// panicked is a panic of a pipeline goroutine, raised again on Stream's.
type panicked struct {
	value any
	stack []byte
}

func (p panicked) String() string { return fmt.Sprintf("%v\n%s", p.value, p.stack) }

// pcapPipelined is pcap on three goroutines (Options.Pipeline).
func (d *decoder) pcapPipelined(r io.Reader, each func(*Conn, *Exchange) error) (*Result, error) {
	pl := &pipeline{jobs: make(chan []pipeJob, pipeExchanges), out: make(chan []pipeJob, pipeExchanges), dec: newDecoder(d.cat, d.o, false)}
	pl.dec.recycle = d.recycle
	pl.cond.L = &pl.mu
	p, err := d.newPcapReader(nil)
	if err != nil {
		return nil, err
	}
	p.pipe = pl
	var (
		res        *Result
		readErr    error
		fault      [2]*panicked // the reader's, the responses'
		goroutines sync.WaitGroup
	)
	catch := func(at **panicked) {
		if v := recover(); v != nil {
			*at = &panicked{v, debug.Stack()}
			pl.stop()
		}
	}
	defer pl.stop() // should each panic: the reader stops, and both goroutines end
	goroutines.Add(2)
	go func() {
		defer goroutines.Done()
		defer close(pl.jobs)
		defer catch(&fault[0])
		res, readErr = p.read(r)
		pl.flush()
	}()
	go func() {
		defer goroutines.Done()
		defer close(pl.out)
		defer catch(&fault[1])
		for batch := range pl.jobs {
			for i := range batch {
				if j := &batch[i]; j.resp != nil {
					pl.dec.seq = j.seq - 1
					pl.dec.response(j.resp, j.e)
					j.resp = nil
				}
			}
			pl.out <- batch
		}
	}()
	var eachErr error
	for batch := range pl.out {
		for i := range batch {
			j := &batch[i]
			pl.done(j)
			if eachErr != nil {
				continue // drained until the reader sees the stop
			}
			if j.e == nil {
				j.c.Notes = append(j.c.Notes, j.note)
				continue
			}
			if eachErr = d.cancelled(); eachErr == nil {
				eachErr = each(j.c, j.e)
			}
			if d.recycle {
				j.e.release()
			}
			if eachErr != nil {
				pl.stop()
			}
		}
	}
	goroutines.Wait()
	for _, f := range fault {
		if f != nil {
			panic(f)
		}
	}
	switch {
	case eachErr != nil:
		return nil, eachErr
	case readErr != nil:
		return nil, readErr
	}
	d.mergeRedactions(pl.dec)
	return res, nil
}
