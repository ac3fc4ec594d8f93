package games

import (
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/values"
)

// TestCodeGather: codes held in bytes and in two bytes read alike.
func TestCodeGather(t *testing.T) {
	if GameOverCode > 0xFF {
		t.Fatalf("GameOverCode %d does not fit the byte CodeGather[uint8] reads it as", GameOverCode)
	}
	t.Run("uint8", testCodeGather[uint8])
	t.Run("uint16", testCodeGather[uint16])
}

func testCodeGather[C Code](t *testing.T) {
	var g CodeGather[C]
	g.SetTiers([]Tier{7, 3}, [][]C{{10, 11, 12}, {20}})
	tests := []struct {
		name     string
		children []TierPosition
		want     []uint16
		bad      int
	}{
		{"none", nil, []uint16{}, -1},
		{"both tiers and a game over", []TierPosition{{7, 2}, {3, 0}, {GameOver, EndLoss}, {7, 0}}, []uint16{12, 20, 2, 10}, -1},
		{"a game drawn by the move", []TierPosition{{GameOver, EndDraw}, {7, 1}}, []uint16{1, 11}, -1},
		{"an end that is none", []TierPosition{{7, 1}, {GameOver, 2}}, nil, 1},
		{"a slot past the end", []TierPosition{{7, 1}, {3, 1}}, nil, 1},
		{"a tier not set", []TierPosition{{7, 1}, {7, 2}, {5, 0}}, nil, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, bad := g.Gather(make([]uint16, 5), tc.children)
			if bad != tc.bad {
				t.Fatalf("bad child %d, want %d", bad, tc.bad)
			}
			if bad < 0 && !slices.Equal(got, tc.want) {
				t.Fatalf("codes %v, want %v", got, tc.want)
			}
			if least := slices.Min(append(slices.Clone(tc.want), 0xFFFF)); bad < 0 && g.Least() != least {
				t.Fatalf("least code %d, want %d", g.Least(), least)
			}
			if bad >= 0 && len(got) != 0 {
				t.Fatalf("codes %v after a bad child, want none", got)
			}
		})
	}
	// SetTiers again replaces the tiers: the old ones are gone.
	g.SetTiers([]Tier{3}, [][]C{{30}})
	if got, bad := g.Gather(nil, []TierPosition{{3, 0}}); bad != -1 || !slices.Equal(got, []uint16{30}) {
		t.Fatalf("after SetTiers: %v, %d", got, bad)
	}
	if _, bad := g.Gather(nil, []TierPosition{{7, 0}}); bad != 0 {
		t.Fatalf("a tier of the SetTiers before still read: bad %d", bad)
	}
}

// BenchmarkCodeGather reads the codes of a placement-like chunk: most children in one
// tier, some in a second (captures), a few ending the game, over tiers of 64 Mi codes.
func BenchmarkCodeGather(b *testing.B) {
	const n = 64 << 20
	tabs := [][]uint8{make([]uint8, n), make([]uint8, n), make([]uint8, n)}
	var g CodeGather[uint8]
	g.SetTiers([]Tier{5, 9, 11}, tabs)
	children := make([]TierPosition, 1<<16)
	x := uint64(88172645463325252)
	for i := range children {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		switch x % 16 {
		case 0:
			children[i] = TierPosition{Tier: GameOver}
		case 1, 2, 3:
			children[i] = TierPosition{Tier: 9, Slot: x % n}
		default: // close together, as a chunk in the game's order has them
			children[i] = TierPosition{Tier: 11, Slot: (uint64(i)*37 + x%512) % n}
		}
	}
	var dst []uint16
	for b.Loop() {
		var bad int
		if dst, bad = g.Gather(dst, children); bad >= 0 {
			b.Fatal(bad)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(children)), "ns/child")
}

// TestEndSlots: the ends of GameOver read back, and their codes are the WDL codes of a
// loss, a draw and a win at 0 in the split layout; the parity layout holds no win at 0.
func TestEndSlots(t *testing.T) {
	t.Parallel()
	split := values.WDLCodes{Split: true}
	for _, o := range []values.Outcome{values.Loss, values.Draw, values.Win} {
		s, ok := EndSlot(o)
		back, ok2 := EndOutcome(s)
		code, ok3 := EndCode(s, split)
		if !ok || !ok2 || !ok3 || back != o || uint32(code) != split.Code(o, 0) {
			t.Errorf("%v: slot %d (%v), reads back %v (%v), code %d (%v)", o, s, ok, back, ok2, code, ok3)
		}
		if code, ok := EndCode(s, values.WDLCodes{}); ok != (o != values.Win) || ok && uint32(code) != (values.WDLCodes{}).Code(o, 0) {
			t.Errorf("%v: the parity layout's code %d (%v)", o, code, ok)
		}
	}
	if _, ok := EndSlot(values.Remoteness); ok {
		t.Error("a puzzle's outcome has an end slot")
	}
	if _, ok := EndCode(3, split); ok {
		t.Error("slot 3 of GameOver reads as an end")
	}
}

// TestCheckOver: the positions a batch marks over must be in order, inside the batch,
// without moves, and a loss or a draw.
func TestCheckOver(t *testing.T) {
	t.Parallel()
	batch := func(build func(b *ChildBatch)) *ChildBatch {
		var b ChildBatch
		b.Reset()
		build(&b)
		return &b
	}
	ok := batch(func(b *ChildBatch) {
		b.Pos = append(b.Pos, TierPosition{Tier: 1})
		b.Close()
		b.End(values.Draw)
		b.End(values.Loss)
	})
	if err := ok.CheckOver(values.WDLCodes{}); err != nil || len(ok.Over) != 2 || ok.Over[0] != (Over{At: 1, Outcome: values.Draw}) {
		t.Fatalf("a good batch: %v, %+v", err, ok.Over)
	}
	won := batch(func(b *ChildBatch) { b.End(values.Win) })
	if err := won.CheckOver(values.WDLCodes{Split: true}); err != nil {
		t.Errorf("a win in the split layout: %v", err)
	}
	for name, b := range map[string]*ChildBatch{
		"with a move": batch(func(b *ChildBatch) {
			b.Pos = append(b.Pos, TierPosition{Tier: 1})
			b.End(values.Loss)
		}),
		"a win in the parity layout": batch(func(b *ChildBatch) { b.End(values.Win) }),
		"a puzzle's outcome":         batch(func(b *ChildBatch) { b.End(values.Remoteness) }),
		"out of order": batch(func(b *ChildBatch) {
			b.Close()
			b.Close()
			b.Over = append(b.Over, Over{At: 1, Outcome: values.Loss}, Over{At: 0, Outcome: values.Loss})
		}),
		"outside": batch(func(b *ChildBatch) {
			b.Close()
			b.Over = append(b.Over, Over{At: 1, Outcome: values.Loss})
		}),
	} {
		if err := b.CheckOver(values.WDLCodes{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
