package slide

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// The helpers here are written independently of the package code (own goal
// boards, own move generation) so that the tests check it rather than echo it.

// sizes lists every supported board size.
func sizes() [][2]int {
	var s [][2]int
	for r := minSide; r <= maxSide; r++ {
		for c := minSide; c <= maxSide && r*c <= MaxCells; c++ {
			s = append(s, [2]int{r, c})
		}
	}
	return s
}

var goals = []Goal{BlankLast, BlankFirst}

func mustGeometry(t testing.TB, rows, cols int) *Geometry {
	t.Helper()
	g, err := NewGeometry(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// wantGoal builds a goal board by its definition.
func wantGoal(n int, goal Goal) []uint8 {
	b := make([]uint8, n)
	for i := range b {
		if goal == BlankLast {
			b[i] = uint8(i + 1)
		} else {
			b[i] = uint8(i)
		}
	}
	if goal == BlankLast {
		b[n-1] = 0
	}
	return b
}

// forEachPerm calls f with every permutation of 0..n-1 in lexicographic order.
// f must not keep or modify the slice.
func forEachPerm(n int, f func([]uint8)) {
	p := make([]uint8, n)
	for i := range p {
		p[i] = uint8(i)
	}
	for {
		f(p)
		i := n - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := n - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		for a, b := i+1, n-1; a < b; a, b = a+1, b-1 {
			p[a], p[b] = p[b], p[a]
		}
	}
}

func randomBoard(rng *rand.Rand, n int) []uint8 {
	b := make([]uint8, n)
	for i, v := range rng.Perm(n) {
		b[i] = uint8(v)
	}
	return b
}

// localMoves returns the boards one move away from b, by row/col arithmetic.
func localMoves(rows, cols int, b []uint8) [][]uint8 {
	blank := 0
	for b[blank] != 0 {
		blank++
	}
	r, c := blank/cols, blank%cols
	var out [][]uint8
	for _, d := range [][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
		nr, nc := r+d[0], c+d[1]
		if nr < 0 || nr >= rows || nc < 0 || nc >= cols {
			continue
		}
		nb := append([]uint8(nil), b...)
		from := nr*cols + nc
		nb[blank], nb[from] = nb[from], 0
		out = append(out, nb)
	}
	return out
}

// key packs a board of at most 16 cells into 4 bits per cell.
func key(b []uint8) uint64 {
	var k uint64
	for i, t := range b {
		k |= uint64(t) << (4 * i)
	}
	return k
}

func unkey(k uint64, n int) []uint8 {
	b := make([]uint8, n)
	for i := range b {
		b[i] = uint8(k >> (4 * i) & 15)
	}
	return b
}

// localBFS returns the exact distance to the goal of every board that can
// reach it (moves are reversible, so BFS from the goal finds them).
func localBFS(rows, cols int, goal Goal) map[uint64]int {
	n := rows * cols
	start := key(wantGoal(n, goal))
	dist := map[uint64]int{start: 0}
	queue := []uint64{start}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, nb := range localMoves(rows, cols, unkey(k, n)) {
			nk := key(nb)
			if _, ok := dist[nk]; !ok {
				dist[nk] = dist[k] + 1
				queue = append(queue, nk)
			}
		}
	}
	return dist
}

type bfsKey struct {
	rows, cols int
	goal       Goal
}

type bfsEntry struct {
	once sync.Once
	dist map[uint64]int
}

var bfsCache sync.Map // bfsKey -> *bfsEntry

// exactDist is localBFS computed once per (size, goal) for all parallel tests.
func exactDist(rows, cols int, goal Goal) map[uint64]int {
	e, _ := bfsCache.LoadOrStore(bfsKey{rows, cols, goal}, &bfsEntry{})
	en := e.(*bfsEntry)
	en.once.Do(func() { en.dist = localBFS(rows, cols, goal) })
	return en.dist
}

// smallSizes are the boards small enough for exhaustive checks.
var smallSizes = [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}
