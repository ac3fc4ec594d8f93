package builder

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Checkpoint is the state of a search after a completed level, as ResumeLevelLog replays
// it: every slot's value so far (Unset where not yet reached) and the states per level.
// It is all a search needs to go on: the visited set is the set of set values, the
// frontier the slots at the last level.
type Checkpoint struct {
	Values *Values
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
	r.visited, r.visitedBuf = newWords(r.n)
	last := uint64(len(c.Counts) - 1)
	unset := r.values.Unset()
	front, frontBuf := newWords(r.n)
	perLevel := make([]atomic.Uint64, len(c.Counts))
	g, _ := errgroup.WithContext(ctx)
	const chunkWords = 1 << 12
	var nextChunk atomic.Uint64
	for range r.workers {
		g.Go(func() error {
			local := make([]uint64, len(c.Counts))
			defer func() {
				for d, k := range local {
					perLevel[d].Add(k)
				}
			}()
			for {
				lo := nextChunk.Add(chunkWords) - chunkWords
				if lo >= uint64(len(r.visited)) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				for wi := lo; wi < min(lo+chunkWords, uint64(len(r.visited))); wi++ {
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
			}
		})
	}
	if err := g.Wait(); err != nil {
		return frontier{}, err
	}
	for d := range c.Counts {
		if got := perLevel[d].Load(); got != c.Counts[d] {
			return frontier{}, fmt.Errorf("builder: checkpoint level %d holds %d states, its header says %d", d, got, c.Counts[d])
		}
	}
	return frontier{words: front, buf: frontBuf, count: c.Counts[last]}, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checkLevels checks a replayed checkpoint against the space it claims to be a search of:
// the goals hold 0 and level 0 holds only them, and a sample of every level's slots
// (up to levelSamples each, spread evenly) has a neighbour one level down and none lower,
// and — below the last level — no neighbour unreached. It costs a few thousand
// expansions, and refuses a log replayed into the wrong space (a forged key).
func checkLevels(sp Space, cp *Checkpoint, path string) error {
	bad := func(what string, args ...any) error {
		return fmt.Errorf("builder: checkpoint %s is not a search of this space: %s (remove it, or build without --resume): %w",
			path, fmt.Sprintf(what, args...), ErrCheckpoint)
	}
	v := cp.Values
	goals := sp.Goals()
	if cp.Counts[0] != uint64(len(goals)) {
		return bad("level 0 holds %d states, the space has %d goals", cp.Counts[0], len(goals))
	}
	for _, g := range goals {
		if g >= v.Len() || v.Get(g) != 0 {
			return bad("goal slot %d is not at level 0", g)
		}
	}
	const levelSamples = 64
	last := uint64(len(cp.Counts) - 1)
	unset := v.Unset()
	// Pick the samples in one pass: every k-th slot of each level, k from its count.
	step := make([]uint64, len(cp.Counts))
	seen := make([]uint64, len(cp.Counts))
	taken := make([]int, len(cp.Counts))
	for d, c := range cp.Counts {
		step[d] = max(1, c/levelSamples)
	}
	expand := sp.NewExpander()
	var src [1]uint64
	var nbrs []uint64
	for s := uint64(0); s < v.Len(); s++ {
		d := v.Get(s)
		if d == unset || d == 0 || d > last {
			continue
		}
		seen[d]++
		if (seen[d]-1)%step[d] != 0 || taken[d] >= levelSamples {
			continue
		}
		taken[d]++
		src[0] = s
		nbrs = expand(nbrs[:0], src[:])
		least := unset
		for _, nb := range nbrs {
			nd := v.Get(nb)
			if nd == unset && d < last {
				return bad("slot %d at level %d has an unreached neighbour", s, d)
			}
			least = min(least, nd)
		}
		if least != d-1 {
			return bad("slot %d at level %d has its nearest neighbour at level %d", s, d, int64(least))
		}
	}
	return nil
}
