package mill_test

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

func TestAdjacencyMatchesHandList(t *testing.T) {
	t.Parallel()
	if len(handEdges) != 32 {
		t.Fatalf("hand list has %d edges", len(handEdges))
	}
	edges := 0
	for p := 1; p <= 24; p++ {
		adj := mill.Adjacent(mill.Point(p - 1))
		for q := 1; q <= 24; q++ {
			if got, want := adj&bit(q) != 0, handAdjacent(p, q); got != want {
				t.Errorf("Adjacent(%d) has %d: %v, want %v", p, q, got, want)
			}
		}
		if n := bits.OnesCount32(adj); n < 2 || n > 4 {
			t.Errorf("point %d has %d neighbours", p, n)
		}
		edges += bits.OnesCount32(adj)
	}
	if edges != 2*32 {
		t.Errorf("%d edge ends, want 64", edges)
	}
}

func TestMillsMatchHandList(t *testing.T) {
	t.Parallel()
	got := mill.Mills()
	want := handMillMasks()
	gs := slices.Sorted(slices.Values(got[:]))
	slices.Sort(want)
	if !slices.Equal(gs, want) {
		t.Fatalf("Mills() = %x, want %x", gs, want)
	}
	for p := 1; p <= 24; p++ {
		var through []uint32
		for _, m := range want {
			if m&bit(p) != 0 {
				through = append(through, m)
			}
		}
		at := mill.MillsAt(mill.Point(p - 1))
		ats := []uint32{min(at[0], at[1]), max(at[0], at[1])}
		if !slices.Equal(ats, through) {
			t.Errorf("MillsAt(%d) = %x, want %x", p, ats, through)
		}
	}
}

// TestInMillAndMillStones checks InMill and MillStones against the hand list on random
// masks of every size.
func TestInMillAndMillStones(t *testing.T) {
	t.Parallel()
	mills := handMillMasks()
	r := rand.New(rand.NewPCG(1, 1))
	for k := 0; k <= 24; k++ {
		for range 300 {
			mask := randomSubset(r, k, 0)
			var want uint32
			for _, m := range mills {
				if mask&m == m {
					want |= m
				}
			}
			if got := mill.MillStones(mask); got != want {
				t.Fatalf("MillStones(%s) = %x, want %x", pos(mask, 0), got, want)
			}
			for p := range mill.Point(24) {
				if got := mill.InMill(mask, p); got != (want&p.Bit() != 0) {
					t.Fatalf("InMill(%s, %v) = %v", pos(mask, 0), p, got)
				}
			}
		}
	}
}

func TestPointString(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		p    mill.Point
		want string
	}{{0, "1"}, {23, "24"}, {mill.NoPoint, "-"}} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("Point(%d).String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}
