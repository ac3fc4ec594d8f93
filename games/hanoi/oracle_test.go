package hanoi

import (
	"fmt"
	"testing"
)

// oracleDistances is an independent breadth-first search over all k^n states, without
// symmetry and without the package's schemes or move generator: states are indexed as
// Σ peg(d)·k^(d−1) and moves found by scanning for the top disks. It returns each
// state's remoteness (−1: unreached).
func oracleDistances(k, n int) []int32 {
	size := 1
	for range n {
		size *= k
	}
	dist := make([]int32, size)
	for i := range dist {
		dist[i] = -1
	}
	goal := size - 1 // every digit k−1
	dist[goal] = 0
	queue := []int{goal}
	st := make([]int, n)
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for i, y := 0, x; i < n; i++ {
			st[i] = y % k
			y /= k
		}
		for from := range k {
			// The top disk of peg from is the smallest disk on it.
			top := -1
			for i := range n {
				if st[i] == from {
					top = i
					break
				}
			}
			if top < 0 {
				continue
			}
		to:
			for to := range k {
				if to == from {
					continue
				}
				for i := range top {
					if st[i] == to {
						continue to // a smaller disk is on peg to
					}
				}
				weight := 1
				for range top {
					weight *= k
				}
				y := x + (to-from)*weight
				if dist[y] < 0 {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	return dist
}

// localBFS is a plain queue search over sp's slots with sp's expander, from the goal.
func localBFS(sp *Space) []int32 {
	dist := make([]int32, sp.Slots())
	for i := range dist {
		dist[i] = -1
	}
	exp := sp.NewExpander()
	queue := append([]uint64(nil), sp.Goals()...)
	for _, g := range queue {
		dist[g] = 0
	}
	var nb []uint64
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		nb = exp(nb[:0], []uint64{s})
		for _, t := range nb {
			if dist[t] < 0 {
				dist[t] = dist[s] + 1
				queue = append(queue, t)
			}
		}
	}
	return dist
}

// TestRemotenessOracle checks, for every state of the small sizes and every scheme, that
// the search over the scheme's slots gives the independent oracle's remoteness (and for
// 3 pegs the closed form), and that every non-hole slot is reached.
func TestRemotenessOracle(t *testing.T) {
	t.Parallel()
	sizes := small()
	for _, kn := range sizes {
		k, n := kn[0], kn[1]
		t.Run(fmt.Sprintf("k%d/n%d", k, n), func(t *testing.T) {
			t.Parallel()
			want := oracleDistances(k, n)
			for _, index := range SchemeNames() {
				sp := mustSpace(t, k, n, index)
				got := localBFS(sp)
				for slot, d := range got {
					if (d < 0) != sp.IsHole(uint64(slot)) {
						t.Fatalf("%s: slot %d: remoteness %d, IsHole %v", index, slot, d, sp.IsHole(uint64(slot)))
					}
				}
				x := 0
				forEachState(k, n, func(st []uint8) {
					if g := got[sp.Rank(st)]; g != want[x] {
						t.Fatalf("%s: state %s: remoteness %d, oracle %d", index, Format(st), g, want[x])
					}
					if k == 3 && uint64(want[x]) != ThreePegDistance(st) {
						t.Fatalf("state %s: oracle %d, closed form %d", Format(st), want[x], ThreePegDistance(st))
					}
					x++
				})
			}
		})
	}
}
