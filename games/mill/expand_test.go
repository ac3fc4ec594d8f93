package mill

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games"
)

// The fast move generation of the solver (expand.go) against the straightforward one:
// Unrank each slot, Successors or Predecessors, Rank each move's position, sort.

// naiveChildren is Children slot by slot from Unrank, Successors and Rank, sorted.
func naiveChildren(w, b int, slot uint64) []games.TierPosition {
	own, opp := boardSector(w, b).Unrank(slot)
	var out []games.TierPosition
	for _, sc := range Successors(nil, own, opp) {
		nw, nb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
		if nw < MinStones {
			out = append(out, games.TierPosition{Tier: games.GameOver})
			continue
		}
		out = append(out, games.TierPosition{Tier: sectorTier(nw, nb), Slot: boardSector(nw, nb).Rank(sc.Own, sc.Opp)})
	}
	sortPositions(out)
	return out
}

// naiveParents is Parents from Unrank, Predecessors and Rank: the distinct slots of the
// sector from whose un-moves lead to slot, sorted.
func naiveParents(w, b int, slot uint64, fw, fb int) []uint64 {
	own, opp := boardSector(w, b).Unrank(slot)
	var out []uint64
	for _, pr := range Predecessors(nil, own, opp) {
		if bits.OnesCount32(pr.Own) == fw && bits.OnesCount32(pr.Opp) == fb {
			out = append(out, boardSector(fw, fb).Rank(pr.Own, pr.Opp))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func sortPositions(x []games.TierPosition) {
	slices.SortFunc(x, func(a, b games.TierPosition) int {
		return cmp.Or(cmp.Compare(a.Tier, b.Tier), cmp.Compare(a.Slot, b.Slot))
	})
}

// dedupeTier keeps one of each child in tier t, the others as they are.
func dedupeTier(x []games.TierPosition, t games.Tier) []games.TierPosition {
	sortPositions(x)
	return slices.CompactFunc(x, func(a, b games.TierPosition) bool { return a == b && a.Tier == t })
}

// smallSectors lists the moving-phase sectors of at most max stones.
func smallSectors(max int) [][2]int {
	var out [][2]int
	for w := MinStones; w <= MaxStones; w++ {
		for b := MinStones; b <= MaxStones; b++ {
			if w+b <= max {
				out = append(out, [2]int{w, b})
			}
		}
	}
	return out
}

// expandStones is the most stones of the sectors the exhaustive tests walk: 7 (3-3, 4-3
// and 3-4: both sides flying, flying against sliding, captures into a sector and ending
// the game, own classes with trivial and non-trivial stabilisers), 8 under the build tag
// long (4-4, 5-3 and 3-5 too: 8.4 million slots, a few minutes), 6 with -short.
func expandStones() int {
	switch {
	case expandLong:
		return 8
	case testing.Short():
		return 6
	}
	return 7
}

// TestSlotCursorWalksEverySlot: the cursor's positions are Unrank's, slot after slot, from
// the start and from seeks into each region (trivial classes, then the leader bitmap).
func TestSlotCursorWalksEverySlot(t *testing.T) {
	t.Parallel()
	for _, wb := range smallSectors(expandStones()) {
		s := boardSector(wb[0], wb[1])
		var c slotCursor
		for slot := range s.Slots() {
			if slot == 0 {
				c.seek(s, 0)
			} else {
				c.next()
			}
			own, opp := s.Unrank(slot)
			if c.Slot != slot || c.Own != own || c.Opp != opp {
				t.Fatalf("sector %d-%d slot %d: cursor at %d (%#x, %#x), Unrank (%#x, %#x)", wb[0], wb[1], slot, c.Slot, c.Own, c.Opp, own, opp)
			}
		}
	}
	// Runs from random seeks in every sector, the large ones too, across the boundary of
	// the two regions as well.
	r := rand.New(rand.NewPCG(1, 2))
	for _, wb := range smallSectors(2 * MaxStones) {
		s := boardSector(wb[0], wb[1])
		starts := []uint64{0, s.flat - min(s.flat, 300), s.Slots() - min(s.Slots(), 600)}
		for range 4 {
			starts = append(starts, r.Uint64N(s.Slots()))
		}
		for _, start := range starts {
			var c slotCursor
			for slot := start; slot < min(s.Slots(), start+600); slot++ {
				if slot == start {
					c.seek(s, slot)
				} else {
					c.next()
				}
				own, opp := s.Unrank(slot)
				if c.Slot != slot || c.Own != own || c.Opp != opp {
					t.Fatalf("sector %d-%d slot %d (from %d): cursor (%#x, %#x), Unrank (%#x, %#x)", wb[0], wb[1], slot, start, c.Own, c.Opp, own, opp)
				}
			}
		}
	}
}

// checkExpand compares Children, ChildrenOnce and Parents of sector (w, b) with the naive
// ones on the slots lo..hi−1, asked for in batches of batch slots.
func checkExpand(t *testing.T, tw *tierWorker, w, b int, lo, hi, batch uint64) {
	t.Helper()
	tier, twin := sectorTier(w, b), sectorTier(b, w)
	var cb, ob games.ChildBatch
	var pb games.ParentBatch
	var counts []uint32
	for start := lo; start < hi; start += batch {
		end := min(hi, start+batch)
		tw.Children(tier, start, end, &cb)
		counts = tw.ChildrenOnce(tier, start, end, twin, &ob, counts[:0])
		slots := make([]uint64, 0, end-start)
		for s := start; s < end; s++ {
			slots = append(slots, s)
		}
		tw.Parents(tier, slots, twin, &pb)
		if n := int(end-start) + 1; len(cb.Off) != n || len(ob.Off) != n || len(counts) != n-1 || len(pb.Off) != n {
			t.Fatalf("sector %d-%d slots %d..%d: %d, %d, %d, %d offsets", w, b, start, end, len(cb.Off), len(ob.Off), len(counts)+1, len(pb.Off))
		}
		for i := range end - start {
			s := start + i
			want := naiveChildren(w, b, s)
			got := slices.Clone(cb.Pos[cb.Off[i]:cb.Off[i+1]])
			sortPositions(got)
			if !slices.Equal(got, want) {
				t.Fatalf("sector %d-%d slot %d: Children %v, want %v", w, b, s, got, want)
			}
			if msg := checkOnce(ob, counts, int(i), twin, want); msg != "" {
				t.Fatalf("sector %d-%d slot %d: ChildrenOnce %s", w, b, s, msg)
			}
			wantP := naiveParents(w, b, s, b, w)
			gotP := slices.Clone(pb.Slots[pb.Off[i]:pb.Off[i+1]])
			slices.Sort(gotP) // the order is free; repeats are not
			if !slices.Equal(gotP, wantP) {
				t.Fatalf("sector %d-%d slot %d: Parents %v, want %v", w, b, s, gotP, wantP)
			}
		}
	}
}

// checkOnce compares ChildrenOnce's answer for the i-th position, the children b lists
// and counts[i], with its children want: b must list those outside tier once, by move,
// and counts[i] be the number of distinct ones in once. It returns what differs, or "".
func checkOnce(b games.ChildBatch, counts []uint32, i int, once games.Tier, want []games.TierPosition) string {
	var wantOut []games.TierPosition
	wantOnce := 0
	for _, c := range dedupeTier(slices.Clone(want), once) {
		switch {
		case c.Tier != once:
			wantOut = append(wantOut, c)
		default:
			wantOnce++
		}
	}
	got := slices.Clone(b.Pos[b.Off[i]:b.Off[i+1]])
	sortPositions(got)
	if !slices.Equal(got, wantOut) {
		return fmt.Sprintf("lists %v, want %v", got, wantOut)
	}
	if int(counts[i]) != wantOnce {
		return fmt.Sprintf("counts %d children in the once tier, want %d", counts[i], wantOnce)
	}
	return ""
}

// TestExpandMatchesNaive: on every slot of every sector of at most expandStones stones,
// the fast Children, ChildrenOnce and Parents give what Unrank, Successors or
// Predecessors and Rank give, in batches of odd sizes (cursor seeks at odd places).
func TestExpandMatchesNaive(t *testing.T) {
	t.Parallel()
	for _, wb := range smallSectors(expandStones()) {
		t.Run(fmt.Sprintf("%d-%d", wb[0], wb[1]), func(t *testing.T) {
			t.Parallel()
			tw := Game{}.NewTierWorker().(*tierWorker)
			checkExpand(t, tw, wb[0], wb[1], 0, boardSector(wb[0], wb[1]).Slots(), 4093)
		})
	}
}

// TestExpandMatchesNaiveLarge: runs of slots of every larger sector, from random places,
// both regions of the slots (trivial classes and the leader bitmap) included.
func TestExpandMatchesNaiveLarge(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	tw := Game{}.NewTierWorker().(*tierWorker)
	n := uint64(400)
	if testing.Short() {
		n = 60
	}
	for _, wb := range smallSectors(2 * MaxStones) {
		if wb[0]+wb[1] <= expandStones() {
			continue
		}
		s := boardSector(wb[0], wb[1])
		for _, lo := range []uint64{r.Uint64N(s.flat), s.flat - min(s.flat, n/2), r.Uint64N(s.Slots())} {
			checkExpand(t, tw, wb[0], wb[1], lo, min(s.Slots(), lo+n), 97)
		}
	}
}

// TestChildrenOnceOtherTiers: ChildrenOnce for a tier it has no fast path for (a
// placement sector, or a moving sector asked about another tier) is Children with that
// tier's children listed once each.
func TestChildrenOnceOtherTiers(t *testing.T) {
	t.Parallel()
	g := Game{}
	tw := g.NewTierWorker().(*tierWorker)
	for _, name := range []string{"2-1-3-3", "3-3-1-1", "4-3", "5-5"} {
		tier, err := g.ParseTier(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, once := range g.TierChildren(tier) {
			var cb, ob games.ChildBatch
			n := min(g.TierSize(tier), 3000)
			tw.Children(tier, 0, n, &cb)
			counts := tw.ChildrenOnce(tier, 0, n, once, &ob, nil)
			if uint64(len(counts)) != n {
				t.Fatalf("%s, once %s: %d counts for %d positions", name, g.TierName(once), len(counts), n)
			}
			for i := range n {
				want := slices.Clone(cb.Pos[cb.Off[i]:cb.Off[i+1]])
				if msg := checkOnce(ob, counts, int(i), once, want); msg != "" {
					t.Fatalf("%s slot %d, once %s: %s", name, i, g.TierName(once), msg)
				}
			}
		}
	}
}

// TestDistinct: the hash set's answer is the sorted set's, in first-seen order, for
// lists short and long (past the set's size), with few and many repeats, across the wrap
// of its stamp.
func TestDistinct(t *testing.T) {
	t.Parallel()
	tw := Game{}.NewTierWorker().(*tierWorker)
	r := rand.New(rand.NewPCG(9, 10))
	for k := range 20000 {
		if k == 10000 {
			tw.setGen = 1<<32 - 3 // wrap the stamp within the next calls
		}
		n := r.IntN(300)
		if k%2 == 0 {
			n = r.IntN(40)
		}
		span := 1 + r.Uint64N(uint64(2*n+1))
		x := make([]uint64, n)
		for i := range x {
			x[i] = r.Uint64N(span) * 0x10001 // equal low bytes too
		}
		want := sortedSet(slices.Clone(x))
		got := tw.distinct(slices.Clone(x))
		if n <= len(tw.setKey)/2 {
			// First-seen order.
			var order []uint64
			for _, v := range x {
				if !slices.Contains(order, v) {
					order = append(order, v)
				}
			}
			if !slices.Equal(got, order) {
				t.Fatalf("distinct(%v) = %v, want %v", x, got, order)
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(got)), want) {
			t.Fatalf("distinct(%v) = %v, want the set %v", x, got, want)
		}
	}
}
