package bfs

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/parallel"
)

// Level is one completed level of a search, as handed to Options.AfterLevel: the slots
// first reached at remoteness D, as lists or as a bitset (Words non-nil).
type Level struct {
	D     int
	Count uint64
	Lists [][]uint64
	Words []uint64
	// Keep is what keeps Lists and Words in memory (they may live outside the Go heap,
	// see bigmem.Buf): a reader that goes on using them after AfterLevel returns (the
	// level log encodes a level in the background) calls runtime.KeepAlive(Keep) after
	// its last use.
	Keep any
}

// Checkpoint is the state of a search after a completed level, as a level log
// (builder/levellog) replays it: every slot's value so far (Unset where not yet reached) and the states per level.
// It is all a search needs to go on: the visited set is the set of set values, the
// frontier the slots at the last level.
type Checkpoint struct {
	Values *builder.Values
	Counts []uint64
}

func (c *Checkpoint) validate(n uint64, width int) error {
	switch {
	case c.Values == nil || len(c.Counts) == 0:
		return errors.New("builder: empty checkpoint")
	case c.Values.Len() != n:
		return fmt.Errorf("builder: checkpoint has %d slots, the space %d", c.Values.Len(), n)
	case c.Values.Width() < width:
		return fmt.Errorf("builder: checkpoint stores %d-byte values, the space needs %d", c.Values.Width(), width)
	}
	return nil
}

// restore rebuilds the visited bitset and the frontier (the last level) from a checkpoint,
// and checks the level counts against the values.
func (r *bfsRun) restore(ctx context.Context, c *Checkpoint) (frontier, error) {
	r.visited, r.visitedBuf = bigmem.NewWords(r.n)
	last := uint64(len(c.Counts) - 1)
	unset := r.values.Unset()
	front, frontBuf := bigmem.NewWords(r.n)
	// Each goroutine counts the states per level it finds into a tally of its own.
	var mu sync.Mutex
	var tallies [][]uint64
	newTally := func() []uint64 {
		t := make([]uint64, len(c.Counts))
		mu.Lock()
		tallies = append(tallies, t)
		mu.Unlock()
		return t
	}
	const chunkWords = 1 << 12
	err := parallel.ForEach(ctx, len(r.workers), uint64(len(r.visited)), chunkWords, newTally, func(local []uint64, lo, hi uint64) error {
		for wi := lo; wi < hi; wi++ {
			var vis, fr uint64
			for b := uint64(0); b < 64 && wi*64+b < r.n; b++ {
				v := r.values.Get(wi*64 + b)
				if v == unset {
					continue
				}
				if v > last {
					return fmt.Errorf("builder: checkpoint slot %d has value %d beyond its last level %d", wi*64+b, v, last)
				}
				local[v]++
				vis |= 1 << b
				if v == last {
					fr |= 1 << b
				}
			}
			r.visited[wi], front[wi] = vis, fr
		}
		return nil
	})
	if err != nil {
		return frontier{}, err
	}
	for d := range c.Counts {
		var got uint64
		for _, t := range tallies {
			got += t[d]
		}
		if got != c.Counts[d] {
			return frontier{}, fmt.Errorf("builder: checkpoint level %d holds %d states, its header says %d", d, got, c.Counts[d])
		}
	}
	return frontier{words: front, buf: frontBuf, count: c.Counts[last]}, nil
}
