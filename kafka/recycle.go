package kafka

import "sync"

// DecodeOptions.Recycle: a frame's tree in blocks of its own, which Frame.Release gives back
// for the frames decoded after it. Without it, a Decoder carves every frame's nodes, children,
// texts and array values from blocks it shares between frames (a frame's block lives as long
// as any frame in it), and the garbage collector frees them: decoding a capture then allocates
// some 28 KB a frame, most of it nodes, and collecting them took a quarter of decode's time.
//
// Each kind of block comes in two sizes, from a sync.Pool each: a frame's first block of a
// kind is small (an eighth), so that a small frame waiting for its response holds little, and
// the next ones are whole. A block is cleared when it is given back, as make would give it.

// block is one block of a frame's memory; the pools keep *block, so that Put allocates nothing.
type block[T any] struct{ s []T }

// blockPool keeps blocks of smallN and bigN elements.
type blockPool[T any] struct {
	small, big     sync.Pool
	smallN, bigN   int
	clearOnRelease bool // T holds pointers: clear the block when it is given back
}

var (
	nodeBlocks = blockPool[Node]{smallN: slabNodes / 8, bigN: slabNodes, clearOnRelease: true}
	kidBlocks  = blockPool[*Node]{smallN: kidsChunk / 8, bigN: kidsChunk, clearOnRelease: true}
	anyBlocks  = blockPool[any]{smallN: anyBlock / 8, bigN: anyBlock, clearOnRelease: true}
	textBlocks = blockPool[byte]{smallN: 1 << 10, bigN: 8 << 10}
	frameMems  = sync.Pool{New: func() any { return new(frameMem) }}
)

// get returns an empty block of at least n elements, small when first and n fits, recorded
// in *own. A block larger than bigN is made for the one use, and the collector frees it.
func (p *blockPool[T]) get(n int, first bool, own *[]*block[T]) []T {
	size, pool := p.bigN, &p.big
	if first && n <= p.smallN {
		size, pool = p.smallN, &p.small
	}
	if n > size {
		return make([]T, 0, n)
	}
	b, _ := pool.Get().(*block[T])
	if b == nil {
		b = &block[T]{s: make([]T, 0, size)}
	}
	*own = append(*own, b)
	return b.s[:0]
}

// put gives the blocks back. lastUsed is how much of the last was used, -1 when not known:
// clearing only that (most frames use part of one block of each kind) in place of the whole
// block took 4% of decoding a capture's time, most of it the write barriers of clearing
// pointers while the collector marks. The blocks before the last are cleared whole.
func (p *blockPool[T]) put(own []*block[T], lastUsed int) {
	for i, b := range own {
		if p.clearOnRelease {
			n := cap(b.s)
			if i == len(own)-1 && lastUsed >= 0 && lastUsed <= n {
				n = lastUsed
			}
			clear(b.s[:n])
		}
		if cap(b.s) == p.smallN {
			p.small.Put(b)
		} else {
			p.big.Put(b)
		}
	}
}

// frameMem is the blocks of one frame decoded with DecodeOptions.Recycle.
type frameMem struct {
	nodes []*block[Node]
	kids  []*block[*Node]
	anys  []*block[any]
	text  []*block[byte]

	// How much of the last block of nodes, kids and anys the frame used (-1: not known).
	nodesUsed, kidsUsed, anysUsed int
}

// lastUsed returns len(cur) when cur is carved from the last of own, else -1.
func lastUsed[T any](own []*block[T], cur []T) int {
	if len(own) == 0 || cap(cur) == 0 {
		return -1
	}
	last := own[len(own)-1].s
	if cap(last) == 0 || &last[:1][0] != &cur[:1][0] {
		return -1
	}
	return len(cur)
}

// noteUsed records how much of its last blocks k used (see blockPool.put).
func (m *frameMem) noteUsed(k *walker) {
	m.nodesUsed = lastUsed(m.nodes, k.slab)
	m.kidsUsed = lastUsed(m.kids, k.kids)
	m.anysUsed = lastUsed(m.anys, k.anys)
}

func (m *frameMem) newText(n int) []byte { return textBlocks.get(n, len(m.text) == 0, &m.text) }

// Release gives the memory of a frame decoded with DecodeOptions.Recycle back, for the frames
// decoded after it: f, its tree, the strings and values read from it (paths, display values,
// Body and Header), its nested frames and its error must not be used after. It does nothing to
// a frame decoded without Recycle, and nothing the second time.
func (f *Frame) Release() {
	m := f.mem
	if m == nil {
		return
	}
	f.mem = nil
	nodeBlocks.put(m.nodes, m.nodesUsed)
	kidBlocks.put(m.kids, m.kidsUsed)
	anyBlocks.put(m.anys, m.anysUsed)
	textBlocks.put(m.text, -1)
	clear(m.nodes)
	clear(m.kids)
	clear(m.anys)
	clear(m.text)
	m.nodes, m.kids, m.anys, m.text = m.nodes[:0], m.kids[:0], m.anys[:0], m.text[:0]
	m.nodesUsed, m.kidsUsed, m.anysUsed = -1, -1, -1
	frameMems.Put(m)
}
