package twobit

import (
	"context"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
	"github.com/tablesmith/tablesmith/games/gametest"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// cycle is the odd cycle 0-1-…-(N-1)-0 plus a chord every 7 slots: not bipartite, so
// neighbours at the same depth occur (their codes are equal).
type cycle struct{ N uint64 }

func (c cycle) Slots() uint64      { return c.N }
func (c cycle) Goals() []uint64    { return []uint64{0, c.N / 2} }
func (c cycle) DepthBound() uint64 { return c.N }
func (c cycle) IsHole(uint64) bool { return false }
func (c cycle) HasHoles() bool     { return false }
func (c cycle) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			dst = append(dst, (s+1)%c.N, (s+c.N-1)%c.N)
			if s%7 == 0 {
				dst = append(dst, (s*5+3)%c.N)
			}
		}
		return dst
	}
}

// check compares a search with the oracle: every slot's code, the counts per level,
// the reached, unreachable and hole counts.
func check(t *testing.T, sp bfstoys.Space, res *Result) {
	t.Helper()
	want := bfstoys.Oracle(sp)
	var counts []uint64
	var holes, unreachable uint64
	for s, d := range want {
		got := res.Codes.Get(uint64(s))
		if d < 0 {
			if got != NotReached {
				t.Fatalf("slot %d: code %d, want not reached", s, got)
			}
			if sp.IsHole(uint64(s)) {
				holes++
			} else {
				unreachable++
			}
			continue
		}
		want := d % 3
		if res.Half {
			want = d / 2 % 2
		}
		if int(got) != want {
			t.Fatalf("slot %d: code %d, want %d (depth %d, half-depth %v)", s, got, want, d, res.Half)
		}
		for len(counts) <= d {
			counts = append(counts, 0)
		}
		counts[d]++
	}
	if !slices.Equal(res.Counts, counts) {
		t.Fatalf("counts %v, want %v", res.Counts, counts)
	}
	if res.Holes != holes || res.Unreachable != unreachable {
		t.Fatalf("holes %d unreachable %d, want %d %d", res.Holes, res.Unreachable, holes, unreachable)
	}
}

func TestSearchMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]bfstoys.Space{
		"cube12":       bfstoys.Cube{Dim: 12},
		"cube16-holes": bfstoys.Cube{Dim: 16, Hole: func(s uint64) bool { return s%7 == 3 || bits.OnesCount64(s) == 9 }},
		"chain":        bfstoys.Chain{Length: 300, N: 1000},
		"cycle":        cycle{N: 100001},
	}
	for name, sp := range spaces {
		for _, workers := range []int{1, 2, 3} {
			for _, batch := range []int{1, 33, 0} {
				res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				check(t, sp, res)
				res.Codes.Release()
			}
		}
	}
}

func TestSpreadSqueeze(t *testing.T) {
	t.Parallel()
	for _, x := range []uint64{0, 1, 0x80000000, 0xffffffff, 0x12345678, 0xdeadbeef} {
		s := spread(x)
		if s&^evenBits != 0 || squeeze(s) != x {
			t.Fatalf("spread(%#x) = %#x, squeeze back %#x", x, s, squeeze(s))
		}
		for i := range 32 {
			if (x>>i&1 == 1) != (s>>(2*i)&1 == 1) {
				t.Fatalf("spread(%#x): bit %d", x, i)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for c := uint64(0); c < 4; c++ {
		var w uint64
		for i := range 32 {
			w |= uint64(i%4) << (2 * i)
		}
		m := match(w, c)
		for i := range 32 {
			if (m>>(2*i)&1 == 1) != (uint64(i%4) == c) || m>>(2*i+1)&1 != 0 {
				t.Fatalf("match(%#x, %d) = %#x", w, c, m)
			}
		}
	}
}

// TestResumeEveryLevel stops a search after every level in turn, resumes it from a copy
// of its state there, and checks the result.
func TestResumeEveryLevel(t *testing.T) {
	t.Parallel()
	sp := bfstoys.Cube{Dim: 14, Hole: func(s uint64) bool { return s%11 == 5 }}
	full, err := Search(context.Background(), sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	levels := len(full.Counts)
	for stopAt := range levels - 1 {
		saved := stopAfter(t, sp, Options{Workers: 2}, stopAt)
		res, err := Search(context.Background(), sp, Options{Workers: 3, Resume: saved})
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp, res)
	}
}

// stopAfter runs a search of sp with opt that stops after level stopAt, and returns a
// copy of its state there.
func stopAfter(t *testing.T, sp Space, opt Options, stopAt int) *Checkpoint {
	t.Helper()
	var saved *Checkpoint
	opt.AfterLevel = func(cp *Checkpoint) error {
		if len(cp.Counts)-1 == stopAt {
			saved = cloneCheckpoint(cp)
			return context.Canceled
		}
		return nil
	}
	if _, err := Search(context.Background(), sp, opt); err == nil || saved == nil {
		t.Fatalf("lean=%v half=%v: stop after level %d: err %v", opt.Lean, opt.Half, stopAt, err)
	}
	return saved
}

func cloneCheckpoint(cp *Checkpoint) *Checkpoint {
	codes := NewCodes(cp.Codes.Len())
	copy(codes.Words, cp.Codes.Words)
	var recent []uint64
	if !cp.Lean() {
		recent = slices.Clone(cp.Recent)
	}
	return &Checkpoint{Codes: codes, Recent: recent, Counts: slices.Clone(cp.Counts), Half: cp.Half}
}

// pushOnly hides a space's Reversible, so that a lean search of it only pushes.
type pushOnly struct{ bfstoys.Space }

// TestLeanMatchesOracle: a lean search (2 bits a slot, push or pull each level) gives
// every slot's code and the counts of the oracle, pushing only, and pulling where the
// space's moves can be undone; the cycle's chords cannot, so it only pushes.
func TestLeanMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]bfstoys.Space{
		"cube12":           bfstoys.Cube{Dim: 12},
		"cube16-holes":     bfstoys.Cube{Dim: 16, Hole: func(s uint64) bool { return s%7 == 3 || bits.OnesCount64(s) == 9 }},
		"cube16-push-only": pushOnly{bfstoys.Cube{Dim: 16}},
		"chain":            bfstoys.Chain{Length: 300, N: 1000},
		"cycle":            cycle{N: 100001},
		"sided-cube19":     bfstoys.SidedCube{Dim: 19}, // 4 chunks, each of one side
		"sided-push-only":  pushOnlySided{bfstoys.SidedCube{Dim: 18}},
	}
	for name, sp := range spaces {
		for _, workers := range []int{1, 3} {
			for _, batch := range []int{1, 33, 0} {
				res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch, Lean: true})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				check(t, sp, res)
				res.Codes.Release()
			}
		}
	}
}

// TestToySpacesKeepTheirPromises: the toy spaces the lean search is checked on keep the
// promises it trusts (package gametest's puzzle-space contract).
func TestToySpacesKeepTheirPromises(t *testing.T) {
	t.Parallel()
	for _, sp := range []gametest.PuzzleSlots{
		bfstoys.Cube{Dim: 12, Hole: func(s uint64) bool { return s%7 == 3 }},
		bfstoys.SidedCube{Dim: 20},
		bfstoys.Chain{Length: 300, N: 1000},
	} {
		gametest.CheckPuzzleSpace(t, sp, 3000)
	}
}

// pushOnlySided hides a sided space's Reversible but not its sides.
type pushOnlySided struct{ bfstoys.SidedCube }

func (pushOnlySided) MovesReversible() bool { return false }

// counted counts the slots its space's expanders are given; with sides set it passes
// the space's RunSide on, without it the search does not know the sides.
type counted struct {
	bfstoys.Space
	sides    Sided
	expanded *atomic.Uint64
}

func (c counted) MovesReversible() bool { return true }

func (c counted) NewExpander() func(dst, src []uint64) []uint64 {
	exp := c.Space.NewExpander()
	return func(dst, src []uint64) []uint64 {
		c.expanded.Add(uint64(len(src)))
		return exp(dst, src)
	}
}

type countedSided struct{ counted }

func (c countedSided) RunSide(lo, hi uint64) (uint8, bool) { return c.sides.RunSide(lo, hi) }

// leanVisits runs a lean search of sp, telling it sp's sides or not, and returns the
// result and the slots expanded or pulled.
func leanVisits(t *testing.T, sp interface {
	bfstoys.Space
	Sided
}, sided bool) (*Result, uint64) {
	t.Helper()
	var n atomic.Uint64
	var s Space = counted{Space: sp, expanded: &n}
	if sided {
		s = countedSided{counted{Space: sp, sides: sp, expanded: &n}}
	}
	res, err := Search(context.Background(), s, Options{Workers: 2, Lean: true})
	if err != nil {
		t.Fatal(err)
	}
	return res, n.Load()
}

// TestLeanSidedSkipsTheOtherSide: knowing the sides, a lean search gives the same codes
// while expanding or visiting fewer slots (the older states of its code on the other side
// are skipped, and so are the unreached slots of the frontier's own side).
func TestLeanSidedSkipsTheOtherSide(t *testing.T) {
	t.Parallel()
	cube := bfstoys.SidedCube{Dim: 19}
	var visits [2]uint64
	for i, sided := range []bool{false, true} {
		var res *Result
		res, visits[i] = leanVisits(t, cube, sided)
		check(t, cube, res)
		res.Codes.Release()
	}
	if visits[1] >= visits[0]*95/100 { // 471,586 against 520,610 when written
		t.Fatalf("slots expanded or visited: %d knowing the sides, %d not", visits[1], visits[0])
	}
	if testing.Verbose() {
		t.Logf("slots expanded or visited: %d knowing the sides, %d not", visits[1], visits[0])
	}
}

// TestLeanSidesNeverCostMore: on sliding puzzles whose chunks straddle blank cells (the
// 8-puzzle's two chunks, 2×5's 14 of which 9 hold both sides), knowing the sides never
// costs a lean search more slots than not knowing them, and the codes are the same.
func TestLeanSidesNeverCostMore(t *testing.T) {
	t.Parallel()
	racetest.SkipSlow(t, "two lean searches of 2×5 (16 s)")
	for _, b := range [][2]int{{3, 3}, {2, 5}} {
		sp, err := slide.NewSpace(slide.Params{Rows: b[0], Cols: b[1], Index: "lex-half"})
		if err != nil {
			t.Fatal(err)
		}
		var visits [2]uint64
		var codes [2]*Codes
		for i, sided := range []bool{false, true} {
			var res *Result
			res, visits[i] = leanVisits(t, sp, sided)
			codes[i] = res.Codes
		}
		if !slices.Equal(codes[0].Words, codes[1].Words) {
			t.Fatalf("%v: the codes differ with the sides known", b)
		}
		if visits[1] > visits[0] {
			t.Fatalf("%v: %d slots visited knowing the sides, %d not", b, visits[1], visits[0])
		}
		t.Logf("%v: %d slots visited knowing the sides, %d not", b, visits[1], visits[0])
	}
}

// goalOnSide1 says the sides of a sided cube the other way round.
type goalOnSide1 struct{ bfstoys.SidedCube }

func (g goalOnSide1) RunSide(lo, hi uint64) (uint8, bool) {
	s, ok := g.SidedCube.RunSide(lo, hi)
	return 1 - s, ok
}

// TestLeanRefusesGoalsOffSide0: a space whose goals are not on side 0 breaks the Sided
// promise (level d on side d mod 2); the lean search refuses it rather than skip the
// wrong chunks.
func TestLeanRefusesGoalsOffSide0(t *testing.T) {
	t.Parallel()
	_, err := Search(context.Background(), goalOnSide1{bfstoys.SidedCube{Dim: 18}}, Options{Lean: true})
	if err == nil || !strings.Contains(err.Error(), "goal slot 0 is on side 1") {
		t.Fatalf("err %v", err)
	}
}

// TestLeanPullsAndPushes: on the hypercube the lean search pushes the first levels and
// pulls the last ones (the unreached slots are then the fewer), and counts each level the
// same either way; a space without Reversible never pulls.
func TestLeanPullsAndPushes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sp       Space
		wantPull bool
	}{{bfstoys.Cube{Dim: 14}, true}, {pushOnly{bfstoys.Cube{Dim: 14}}, false}} {
		var modes []bool
		res, err := Search(context.Background(), tc.sp, Options{Workers: 1, Lean: true,
			LeanLevel: func(_ uint64, pull bool) { modes = append(modes, pull) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(modes) != len(res.Counts) || modes[0] || slices.Contains(modes, true) != tc.wantPull {
			t.Fatalf("%T: pull per level %v", tc.sp, modes)
		}
		res.Codes.Release()
	}
}

// TestLeanResumeEveryLevel stops a lean search after every level, resumes it from a copy
// of its state there (and from a full search's checkpoint, whose recent bits it drops),
// and checks the result; a full search refuses a lean checkpoint.
func TestLeanResumeEveryLevel(t *testing.T) {
	t.Parallel()
	resumeEveryLevel(t, bfstoys.Cube{Dim: 14, Hole: func(s uint64) bool { return s%11 == 5 }}, 1)
	// Resumed, a push scans every chunk, and the sides skip half of them: every third
	// level (a lean search of 2^18 slots is slow under the race detector).
	resumeEveryLevel(t, bfstoys.SidedCube{Dim: 18}, 3)
}

func resumeEveryLevel(t *testing.T, sp bfstoys.Space, stride int) {
	full, err := Search(context.Background(), sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	levels := len(full.Counts)
	for _, from := range []bool{true, false} { // the checkpoint is a lean search's
		for stopAt := 0; stopAt < levels-1; stopAt += stride {
			saved := stopAfter(t, sp, Options{Workers: 2, Lean: from}, stopAt)
			if from {
				if err := saved.check(); err != nil {
					t.Fatalf("stop at %d: %v", stopAt, err)
				}
				if _, err := Search(context.Background(), sp, Options{Workers: 2, Resume: cloneCheckpoint(saved)}); err == nil {
					t.Fatal("a full search resumed a lean checkpoint")
				}
			}
			res, err := Search(context.Background(), sp, Options{Workers: 3, Resume: saved, Lean: true})
			if err != nil {
				t.Fatal(err)
			}
			check(t, sp, res)
		}
	}
}

// slotSides answers a sided space's RunSide for single slots only, as slide's mr scheme
// does: every chunk is then of both sides, and a half-depth search holds their masks.
type slotSides struct{ bfstoys.SidedCube }

func (c slotSides) RunSide(lo, hi uint64) (uint8, bool) {
	if hi-lo != 1 {
		return 0, false
	}
	return c.SidedCube.RunSide(lo, hi)
}

// wordSides answers runs within a word but not across words, so that some words of a
// chunk of both sides are answered whole and the word the sides change in slot by slot.
type wordSides struct{ bfstoys.SidedCube }

func (c wordSides) RunSide(lo, hi uint64) (uint8, bool) {
	if hi-lo > 32 || (lo>>5) != ((hi-1)>>5) {
		return 0, false
	}
	return c.SidedCube.RunSide(lo, hi)
}

// TestHalfMatchesOracle: a half-depth search (2 bits a slot, each state expanded once)
// leaves every reached slot's ⌊d/2⌋ mod 2 and the oracle's counts, on chunks of one side,
// of both (side masks) and on one chunk smaller than a word's run; it refuses a space
// without sides and one whose goal is on side 1.
func TestHalfMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]bfstoys.Space{
		"sided-cube19": bfstoys.SidedCube{Dim: 19}, // 4 chunks, each of one side
		"sided-cube12": bfstoys.SidedCube{Dim: 12}, // one chunk of both sides
		"slot-sides":   slotSides{bfstoys.SidedCube{Dim: 18}},
		"word-sides":   wordSides{bfstoys.SidedCube{Dim: 14}},
		"sided-cube3":  bfstoys.SidedCube{Dim: 3},
	}
	workers, batches := []int{1, 3}, []int{1, 33, 0}
	// Under the race detector (both passes): smaller instances, the same paths.
	if racetest.Enabled {
		workers, batches = []int{3}, []int{33}
	}
	for name, sp := range spaces {
		for _, workers := range workers {
			for _, batch := range batches {
				res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch, Half: true})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				if !res.Half {
					t.Fatalf("%s: result not marked half-depth", name)
				}
				check(t, sp, res)
				res.Codes.Release()
			}
		}
	}
	for _, tc := range []struct {
		sp   Space
		want string
	}{
		{bfstoys.Cube{Dim: 10}, "games.Sided"},
		{goalOnSide1{bfstoys.SidedCube{Dim: 12}}, "goal slot 0 is on side 1"},
	} {
		if _, err := Search(context.Background(), tc.sp, Options{Half: true}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%T: err %v, want %q", tc.sp, err, tc.want)
		}
		if err := CheckHalf(tc.sp); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("CheckHalf(%T): %v, want %q", tc.sp, err, tc.want)
		}
	}
	for _, tc := range []struct {
		sp    Space
		masks uint64 // SideMaskBytes
	}{
		{bfstoys.SidedCube{Dim: 19}, 0},                         // each side a half of the slots
		{slotSides{bfstoys.SidedCube{Dim: 18}}, 1<<18/4 + 2*64}, // sides slot by slot: a mask for all
	} {
		if err := CheckHalf(tc.sp); err != nil {
			t.Fatalf("CheckHalf(%T): %v", tc.sp, err)
		}
		if got := SideMaskBytes(tc.sp); got != tc.masks {
			t.Fatalf("SideMaskBytes(%T) = %d, want %d", tc.sp, got, tc.masks)
		}
	}
	if got := SideMaskBytes(bfstoys.Cube{Dim: 10}); got != 0 {
		t.Fatalf("SideMaskBytes of a space without sides = %d", got)
	}
	big, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 4, Index: "mr"}) // sides slot by slot
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckHalf(big); err == nil || !strings.Contains(err.Error(), "long runs") {
		t.Fatalf("CheckHalf(3×4 mr): %v", err)
	}
	if _, err := Search(context.Background(), bfstoys.SidedCube{Dim: 10}, Options{Half: true, Lean: true}); err == nil {
		t.Fatal("a search both lean and half-depth ran")
	}
}

// TestHalfExpandsOnce: a half-depth search hands every reached state to the expander
// exactly once, as the 3-bit search does.
func TestHalfExpandsOnce(t *testing.T) {
	t.Parallel()
	cube := bfstoys.SidedCube{Dim: 18}
	var n atomic.Uint64
	sp := countedSided{counted{Space: cube, sides: cube, expanded: &n}}
	res, err := Search(context.Background(), sp, Options{Workers: 2, Half: true})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Codes.Release()
	if n.Load() != res.Reached || res.Reached != cube.Slots() {
		t.Fatalf("%d slots expanded, %d reached of %d", n.Load(), res.Reached, cube.Slots())
	}
}

// TestHalfResumeEveryLevel stops a half-depth search after every level, resumes it from
// a copy of its state there, and checks the result; the other searches refuse its
// checkpoint, and it refuses theirs.
func TestHalfResumeEveryLevel(t *testing.T) {
	t.Parallel()
	big := bfstoys.SidedCube{Dim: 18} // chunks of one side
	// Under the race detector (both passes): smaller instances, the same paths.
	if racetest.Enabled {
		big.Dim = 15
	}
	for _, sp := range []bfstoys.Space{big, slotSides{bfstoys.SidedCube{Dim: 13}}} {
		full, err := Search(context.Background(), sp, Options{Workers: 2, Half: true})
		if err != nil {
			t.Fatal(err)
		}
		for stopAt := 0; stopAt < len(full.Counts)-1; stopAt++ {
			saved := stopAfter(t, sp, Options{Workers: 2, Half: true}, stopAt)
			if err := saved.check(); err != nil {
				t.Fatalf("stop at %d: %v", stopAt, err)
			}
			for _, other := range []Options{{}, {Lean: true}} {
				if _, err := Search(context.Background(), sp, Options{Workers: 2, Lean: other.Lean, Resume: cloneCheckpoint(saved)}); err == nil {
					t.Fatalf("a search lean=%v resumed a half-depth checkpoint", other.Lean)
				}
			}
			res, err := Search(context.Background(), sp, Options{Workers: 3, Resume: saved, Half: true})
			if err != nil {
				t.Fatal(err)
			}
			check(t, sp, res)
			res.Codes.Release()
		}
		full.Codes.Release()
	}
}

// restCounted counts the slots a sided cube's rest expanders are given.
type restCounted struct {
	bfstoys.SidedCube
	rest *atomic.Uint64
}

func (c restCounted) NewRestExpander() func(dst, src []uint64) []uint64 {
	exp := c.SidedCube.NewRestExpander()
	return func(dst, src []uint64) []uint64 {
		c.rest.Add(uint64(len(src)))
		return exp(dst, src)
	}
}

// TestShiftsGiveTheSameCodes: every kind of search (3 bits, lean, half-depth) of a space
// with shifts (the sided cube's top bit, slide's horizontal moves) leaves the same codes
// and counts with its shifts as without, and uses them: the rest expander is handed the
// states, each once by the 3-bit and half-depth searches.
func TestShiftsGiveTheSameCodes(t *testing.T) {
	t.Parallel()
	var rest atomic.Uint64
	slide25, err := slide.NewSpace(slide.Params{Rows: 2, Cols: 5, Index: "lex-half"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range []Space{restCounted{bfstoys.SidedCube{Dim: 18}, &rest}, slide25} {
		for _, mode := range []Options{{}, {Lean: true}, {Half: true}} {
			var words [2][]uint64
			var counts [2][]uint64
			for i, off := range []bool{true, false} {
				rest.Store(0)
				opt := mode
				opt.Workers, opt.NoShifts = 3, off
				res, err := Search(context.Background(), sp, opt)
				if err != nil {
					t.Fatal(err)
				}
				words[i], counts[i] = slices.Clone(res.Codes.Words), res.Counts
				res.Codes.Release()
				if _, ok := sp.(restCounted); ok && (rest.Load() == 0) != off {
					t.Fatalf("%T lean=%v half=%v shifts off=%v: the rest expander had %d slots", sp, mode.Lean, mode.Half, off, rest.Load())
				}
				if _, ok := sp.(restCounted); ok && !off && !mode.Lean && rest.Load() != res.Reached {
					t.Fatalf("%T half=%v: the rest expander had %d slots, %d states reached", sp, mode.Half, rest.Load(), res.Reached)
				}
			}
			if !slices.Equal(words[0], words[1]) || !slices.Equal(counts[0], counts[1]) {
				t.Fatalf("%T lean=%v half=%v: the codes or counts differ with the shifts", sp, mode.Lean, mode.Half)
			}
		}
	}
}
