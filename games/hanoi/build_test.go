package hanoi_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/games/hanoi"
)

// Build-level checks: the builder's parallel BFS over each scheme against the closed
// forms, Frame–Stewart numbers, class counts and the other schemes.

// The space satisfies the builder's interfaces (tables.Domain is checked where the
// lookup package hands a Space out as one).
var (
	_ bfs.Space    = (*hanoi.Space)(nil)
	_ bfs.Holed    = (*hanoi.Space)(nil)
	_ bfs.Expecter = (*hanoi.Space)(nil)
)

func build(t testing.TB, k, n int, index string) (*hanoi.Space, *bfs.Result) {
	t.Helper()
	sp, err := hanoi.NewSpace(hanoi.Params{Pegs: k, Disks: n, Index: index})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2})
	if err != nil {
		t.Fatalf("BFS(%d pegs, %d disks, %s): %v", k, n, index, err)
	}
	return sp, res
}

// checkCounts checks the summary of a finished build: every class (plain: state) is
// reached, holes are exactly the seed scheme's gaps, nothing is unreachable.
func checkCounts(t testing.TB, sp *hanoi.Space, res *bfs.Result) {
	t.Helper()
	p := sp.Params()
	states := hanoi.ClassCount(p.Pegs, p.Disks)
	if p.Index == hanoi.SchemePlain {
		states = sp.Slots()
	}
	if res.Reached != states || res.Unreachable != 0 || res.Reached+res.Holes != sp.Slots() {
		t.Errorf("%+v: reached %d, holes %d, unreachable %d; want %d states in %d slots",
			p, res.Reached, res.Holes, res.Unreachable, states, sp.Slots())
	}
	var sum uint64
	for _, c := range res.Counts {
		sum += c
	}
	if most := uint64(res.MaxRemoteness()); most > sp.DepthBound() {
		t.Errorf("%+v: largest remoteness %d above DepthBound %d", p, most, sp.DepthBound())
	}
	if sum != res.Reached || res.Counts[0] != 1 {
		t.Errorf("%+v: counts %v do not add up to %d", p, res.Counts, res.Reached)
	}
}

// forEachState calls f with every state of k pegs and n disks.
func forEachState(k, n int, f func(st []uint8)) {
	st := make([]uint8, n)
	for {
		f(st)
		i := 0
		for i < n && int(st[i]) == k-1 {
			st[i] = 0
			i++
		}
		if i == n {
			return
		}
		st[i]++
	}
}

func TestBuildThreePegsClosedForm(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 10; n++ {
		for _, index := range hanoi.SchemeNames() {
			if index == hanoi.SchemePlain && n > 8 {
				continue
			}
			t.Run(fmt.Sprintf("%s/n%d", index, n), func(t *testing.T) {
				t.Parallel()
				sp, res := build(t, 3, n, index)
				checkCounts(t, sp, res)
				if got := res.MaxRemoteness(); got != 1<<n-1 {
					t.Errorf("largest remoteness %d, want 2^n−1 = %d", got, 1<<n-1)
				}
				forEachState(3, n, func(st []uint8) {
					if got, want := res.Values.Get(sp.Rank(st)), hanoi.ThreePegDistance(st); got != want {
						t.Fatalf("state %s: remoteness %d, closed form %d", hanoi.Format(st), got, want)
					}
				})
			})
		}
	}
}

// TestBuildSchemesAgree builds every scheme for small sizes of every peg count and
// compares the remoteness of every state.
func TestBuildSchemesAgree(t *testing.T) {
	t.Parallel()
	for k, maxN := range map[int]int{3: 10, 4: 8, 5: 7, 6: 6} {
		for n := 1; n <= maxN; n++ {
			t.Run(fmt.Sprintf("k%d/n%d", k, n), func(t *testing.T) {
				t.Parallel()
				var spaces []*hanoi.Space
				var results []*bfs.Result
				for _, index := range hanoi.SchemeNames() {
					sp, res := build(t, k, n, index)
					checkCounts(t, sp, res)
					spaces, results = append(spaces, sp), append(results, res)
				}
				forEachState(k, n, func(st []uint8) {
					want := results[0].Values.Get(spaces[0].Rank(st))
					for i := 1; i < len(spaces); i++ {
						if got := results[i].Values.Get(spaces[i].Rank(st)); got != want {
							t.Fatalf("state %s: %s remoteness %d, %s %d", hanoi.Format(st),
								spaces[i].Params().Index, got, spaces[0].Params().Index, want)
						}
					}
				})
				for i := 1; i < len(results); i++ {
					if !slices.Equal(results[i].Counts, results[0].Counts) && spaces[i].Params().Index != hanoi.SchemePlain {
						t.Errorf("counts per remoteness differ: %v vs %v", results[i].Counts, results[0].Counts)
					}
				}
			})
		}
	}
}

// frameStewart are the 4-peg Frame–Stewart numbers for n = 1, 2, …: the remoteness of
// the standard start, all disks on peg 0.
var frameStewart = []uint64{1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113}

// frameStewartShort is the largest n checked with -short (n = 14 alone takes about 5 s
// on 2 cores); the full run checks every n of the issue, 1..14.
const frameStewartShort = 13

func TestBuildFrameStewart(t *testing.T) {
	t.Parallel()
	maxN := len(frameStewart)
	if testing.Short() {
		maxN = frameStewartShort
	}
	for n := 1; n <= maxN; n++ {
		sp, res := build(t, 4, n, hanoi.SchemeClasses)
		checkCounts(t, sp, res)
		start := make([]uint8, n)
		if fs := hanoi.FrameStewart(4, n); fs != frameStewart[n-1] {
			t.Errorf("FrameStewart(4, %d) = %d, want %d", n, fs, frameStewart[n-1])
		}
		if got := res.Values.Get(sp.Rank(start)); got != frameStewart[n-1] {
			t.Errorf("4 pegs, %d disks: standard start remoteness %d, Frame–Stewart %d", n, got, frameStewart[n-1])
		}
		slot, ok, err := sp.Slot(hanoi.Format(start))
		if err != nil || !ok || slot != sp.Rank(start) {
			t.Errorf("Slot(%s) = %d, %v, %v", hanoi.Format(start), slot, ok, err)
		}
	}
}

// TestBuildClassCounts checks that a build of the classes scheme reaches exactly
// ClassCount classes for every peg count.
func TestBuildClassCounts(t *testing.T) {
	t.Parallel()
	for k, n := range map[int]int{3: 13, 4: 10, 5: 9, 6: 8} {
		t.Run(fmt.Sprintf("k%d/n%d", k, n), func(t *testing.T) {
			t.Parallel()
			sp, res := build(t, k, n, hanoi.SchemeClasses)
			checkCounts(t, sp, res)
			if sp.Slots() != hanoi.ClassCount(k, n) {
				t.Errorf("Slots %d, ClassCount %d", sp.Slots(), hanoi.ClassCount(k, n))
			}
		})
	}
}
