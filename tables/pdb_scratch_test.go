package tables

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tablesmith/builder"
	"tablesmith/games/slide"
)

func TestScratchConsistency(t *testing.T) {
	for _, c := range []struct {
		r, c  int
		goal  slide.Goal
		tiles []uint8
	}{
		{3, 3, slide.BlankLast, []uint8{1, 2, 3, 4}},
		{3, 3, slide.BlankLast, []uint8{5, 6, 7, 8}},
		{3, 3, slide.BlankLast, []uint8{1, 2, 3, 4, 5, 6, 7}},
		{3, 3, slide.BlankFirst, []uint8{1, 2, 3, 4, 5, 6, 7}},
		{4, 4, slide.BlankFirst, []uint8{1, 2, 3, 4, 5}},
		{4, 4, slide.BlankFirst, []uint8{11, 12, 13, 14, 15}},
		{4, 4, slide.BlankFirst, []uint8{1, 2, 3, 4, 5, 6}},
		{4, 4, slide.BlankFirst, []uint8{1, 4, 5, 8, 9, 12}},
		{3, 4, slide.BlankLast, []uint8{1, 2, 3, 4, 5, 6, 7}},
	} {
		geo, _ := slide.NewGeometry(c.r, c.c)
		sp := newPDBSpace(geo, c.goal, c.tiles)
		start := time.Now()
		res, err := builder.ZeroOneBFS(context.Background(), sp, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		g := sp.g
		var cells [32]uint8
		bad, maxEx := 0, 0
		hist := map[int]int{}
		for e := range res.Entries {
			g.pp.Unrank(e, cells[:])
			v := int(res.Values.Get(e))
			md := g.mdOf(cells[:])
			ex := (v - md) / 2
			hist[ex]++
			maxEx = max(maxEx, ex)
			var occ uint32
			for _, x := range cells[:g.k] {
				occ |= 1 << x
			}
			for i := range g.k {
				from := cells[i]
				for _, to := range geo.Neighbors(int(from)) {
					if occ&(1<<to) != 0 {
						continue
					}
					cells[i] = to
					v2 := int(res.Values.Get(g.pp.Rank(cells[:g.k])))
					cells[i] = from
					if v2-v > 1 || v-v2 > 1 {
						bad++
						if bad < 4 {
							fmt.Println("inconsistent", cells[:g.k], v, "tile", g.tiles[i], "to", to, v2)
						}
					}
				}
			}
		}
		fmt.Printf("%dx%d %v %v: entries %d max %d slots/s %.0fM  inconsistent %d maxExcess %d hist %v\n", c.r, c.c, c.goal, c.tiles, res.Entries, res.MaxValue(),
			float64(res.Reached)/el.Seconds()/1e6, bad, maxEx, hist)
	}
}
