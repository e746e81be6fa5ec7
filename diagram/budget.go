package diagram

import (
	"context"
	"sync"
)

// budget is a counting semaphore of units (chunks of bytes held by the requests being read):
// take waits until n are free or ctx is done.
type budget struct {
	mu    sync.Mutex
	free  int
	total int
	wake  chan struct{} // closed and replaced when units are given back
}

func newBudget(n int) *budget { return &budget{free: n, total: n, wake: make(chan struct{})} }

// take takes n units, waiting for them until ctx is done; n more than the total never
// succeeds.
func (b *budget) take(ctx context.Context, n int) error {
	for {
		b.mu.Lock()
		if n <= b.free {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// give gives n units back.
func (b *budget) give(n int) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	close(b.wake)
	b.wake = make(chan struct{})
	b.mu.Unlock()
}

// held is the units taken.
func (b *budget) held() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total - b.free
}
