package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/games/slide"
)

// manhattanOf is the Manhattan distance of the group's tiles on cells, from the goal board's
// definition and row/column arithmetic.
func manhattanOf(p slide.PDBParams, tiles []uint8, cells []uint8) uint64 {
	gb := pdbGoalBoard(p.Rows*p.Cols, p.Goal)
	var md uint64
	for i, t := range tiles {
		home := 0
		for c, x := range gb {
			if x == t {
				home = c
			}
		}
		dr := int(cells[i])/p.Cols - home/p.Cols
		dc := int(cells[i])%p.Cols - home%p.Cols
		md += uint64(max(dr, -dr) + max(dc, -dc))
	}
	return md
}

// planted is the excess code the test gives entry e.
func planted(e uint64) uint64 { return (e*2654435761 + e>>7) % 11 }

// TestToExcessEdges converts groups of 1 tile and of n-3 tiles (the largest allowed),
// on boards whose entry counts are not multiples of toExcess's chunk (one chunk, a
// few, many with a partial last one), with 1, 2, 7 and 64 workers, and checks every
// entry's code and the largest code against an independent Manhattan distance. Then
// values of the wrong parity or below the distance at the edges of blocks and chunks
// must be reported with their placement, and a cancelled context must stop it.
func TestToExcessEdges(t *testing.T) {
	t.Parallel()
	params := []slide.PDBParams{
		{Rows: 2, Cols: 2, Goal: "blank-last", Tiles: []int{3}},
		{Rows: 2, Cols: 3, Goal: "blank-first", Tiles: []int{1, 2, 3}},
		{Rows: 3, Cols: 3, Goal: "blank-last", Tiles: []int{1, 2, 3, 4, 5, 6}},
		{Rows: 3, Cols: 3, Goal: "blank-first", Tiles: []int{8}},
		{Rows: 2, Cols: 5, Goal: "blank-last", Tiles: []int{1, 3, 4, 5, 6, 8, 9}},
		{Rows: 5, Cols: 5, Goal: "blank-first", Tiles: []int{24}},
		{Rows: 5, Cols: 5, Goal: "blank-last", Tiles: []int{1, 7, 13, 19}},
		{Rows: 4, Cols: 4, Goal: "blank-first", Tiles: []int{15}},
		{Rows: 2, Cols: 4, Goal: "blank-first", Tiles: []int{1, 2, 5, 6, 7}},
	}
	if testing.Short() {
		params = params[:4]
	}
	for _, p := range params {
		t.Run(fmt.Sprintf("%dx%d%v", p.Rows, p.Cols, p.Tiles), func(t *testing.T) {
			t.Parallel()
			g, err := slide.NewPDBGroup(p)
			if err != nil {
				t.Fatal(err)
			}
			sp := pdbBuildOf(t, p)
			n, k := p.Rows*p.Cols, g.K()
			md := make([]uint64, g.Slots())
			keep := map[uint64]bool{}
			block := uint64(n - k + 1)
			const chunk = excessChunk // not a multiple of block: chunks begin and end inside blocks
			size := g.Slots()
			for _, e := range []uint64{0, block - 1, block, 2*block - 1, chunk - 1, chunk, chunk + 1, chunk + block - 1,
				chunk - chunk%block, chunk - chunk%block - 1, 2*chunk - 1, 2 * chunk, size - block, size - 1} {
				if e < size {
					keep[e] = true
				}
			}
			kept := map[uint64][]uint8{}
			// Unrank from scratch: the index's tuple order, apart from the cursor
			// toExcess steps.
			c := make([]uint8, k)
			for e := range size {
				g.Unrank(e, c)
				md[e] = manhattanOf(p, g.Tiles(), c)
				if keep[e] {
					kept[e] = append([]uint8(nil), c...)
				}
			}
			fresh := func() *builder.Values {
				v, err := builder.NewValues(size, 1)
				if err != nil {
					t.Fatal(err)
				}
				for e := range size {
					v.Set(e, md[e]+2*planted(e))
				}
				return v
			}
			var wantTop uint64
			for e := range size {
				wantTop = max(wantTop, planted(e))
			}
			for _, workers := range []int{1, 2, 7, 64} {
				v := fresh()
				top, err := toExcess(context.Background(), sp, v, workers)
				if err != nil {
					t.Fatalf("%d workers: %v", workers, err)
				}
				if top != wantTop {
					t.Fatalf("%d workers: largest code %d, want %d", workers, top, wantTop)
				}
				for e := range size {
					if got := v.Get(e); got != planted(e) {
						t.Fatalf("%d workers: entry %d (of %d, chunk %d) has code %d, want %d", workers, e, size, chunk, got, planted(e))
					}
				}
			}
			// Bad values, one at a time.
			for e, c := range kept {
				for _, bad := range []struct {
					name  string
					value uint64
				}{{"odd", md[e] + 1}, {"below", md[e] - 2}} {
					if bad.name == "below" && md[e] < 2 {
						continue
					}
					for _, workers := range []int{1, 3} {
						v := fresh()
						v.Set(e, bad.value)
						_, err := toExcess(context.Background(), sp, v, workers)
						if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("placement %v:", c)) {
							t.Fatalf("%d workers: value %d (%s) at entry %d (placement %v, distance %d) gave %v",
								workers, bad.value, bad.name, e, c, md[e], err)
						}
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := toExcess(ctx, sp, fresh(), 2); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled: %v", err)
			}
		})
	}
}
