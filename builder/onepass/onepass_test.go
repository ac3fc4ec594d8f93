package onepass

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/values"
)

// toy is a tier of n positions visited in a shuffled order, each with children's codes
// given explicitly, some over by the rules; fault breaks the worker in one way.
type toy struct {
	n     uint64
	order []uint64
	kids  [][]uint16
	over  map[uint64]uint16
	fault string
}

func (t *toy) Slots() uint64     { return t.n }
func (t *toy) NewWorker() Worker { return t }

func (t *toy) Expand(lo, hi uint64, b *Batch) error {
	for i := lo; i < hi; i++ {
		s := t.order[i]
		switch {
		case t.fault == "range" && i == lo:
			s = t.n + 3
		case t.fault == "twice" && i == 1:
			s = t.order[0]
		}
		b.Slots = append(b.Slots, s)
		if c, ok := t.over[s]; ok {
			b.Over = append(b.Over, Over{At: len(b.Slots) - 1, Code: c})
			if t.fault == "over-children" {
				b.Codes = append(b.Codes, 2)
			}
		} else if s < t.n {
			b.Codes = append(b.Codes, t.kids[s]...)
		}
		b.Off = append(b.Off, len(b.Codes))
	}
	return nil
}

func newToy(n uint64, e values.WDLCodes) *toy {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	t := &toy{n: n, order: make([]uint64, n), kids: make([][]uint16, n), over: map[uint64]uint16{}}
	for s := range n {
		t.order[s] = s
		if r.IntN(10) == 0 {
			t.over[s] = uint16(e.Code([]values.Outcome{values.Loss, values.Draw}[r.IntN(2)], 0))
			continue
		}
		for range r.IntN(5) {
			o := []values.Outcome{values.Win, values.Loss, values.Draw}[r.IntN(3)]
			rem := r.IntN(20)
			if !e.Holds(o, rem) {
				rem++
			}
			t.kids[s] = append(t.kids[s], uint16(e.Code(o, rem)))
		}
	}
	r.Shuffle(int(n), func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
	return t
}

// TestSolve: every slot's code is the combining rule over its children's (a summary of
// them added one by one), or its code by the rules where it is over, in both layouts and
// with several workers; a worker's faults are named.
func TestSolve(t *testing.T) {
	t.Parallel()
	for _, e := range []values.WDLCodes{{}, {Split: true}} {
		tt := newToy(10_000, e)
		codes, mem, err := Solve(context.Background(), tt, Options{Workers: 3, Layout: e, Chunk: 333})
		if err != nil {
			t.Fatal(err)
		}
		for s := range tt.n {
			want := uint32(tt.over[s])
			if _, over := tt.over[s]; !over {
				var sum values.MoveSummary
				for _, c := range tt.kids[s] {
					sum.AddCodeOf(e, uint32(c))
				}
				want = sum.CodeOf(e)
			}
			if uint32(codes[s]) != want {
				t.Fatalf("%s: slot %d: code %d, want %d", e.Encoding(), s, codes[s], want)
			}
		}
		mem.Release()
	}
	for fault, want := range map[string]string{
		"range":         "names slot 103",
		"twice":         "never visits slot",
		"over-children": "over by the rules but has 1 children",
	} {
		tt := newToy(100, values.WDLCodes{})
		tt.fault = fault
		if _, _, err := Solve(context.Background(), tt, Options{Workers: 1}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", fault, err, want)
		}
	}
}
