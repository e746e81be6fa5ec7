package heapfloor

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	runtime.GC()
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestHold: the block raises the collector's goal by at least its size while held, and an
// environment that sets GOGC turns Hold off.
func TestHold(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	const n = 64 << 20
	before := heapGoal()
	release := Hold(n)
	held := heapGoal()
	release()
	if held < before+n {
		t.Errorf("heap goal %d with a %d-byte block held, %d before", held, n, before)
	}
	t.Setenv("GOGC", "100")
	release = Hold(n)
	if off := heapGoal(); off >= before+n {
		t.Errorf("heap goal %d with GOGC set, %d before", off, before)
	}
	release()
}
