package gametest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/tictactoe"
	"github.com/tablesmith/tablesmith/values"
)

// recorder is a testing.TB that records the first failure instead of failing the test
// that runs the check, so that a check can be shown to fail.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed == "" {
		r.failed = fmt.Sprintf(format, args...)
	}
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// record runs a check with a recorder and returns its first failure ("" for none).
func record(t *testing.T, check func(testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failed
}

// check runs CheckTiered on g and returns its first failure ("" for none).
func check(t *testing.T, g games.TieredGame) string {
	return record(t, func(tb testing.TB) { CheckTiered(tb, g, 64) })
}

// The faults below are each a game that disagrees with itself in one way.

// lookupDropsMove: the lookup lists one move fewer than the build.
type lookupDropsMove struct{ tictactoe.Game }

func (g lookupDropsMove) Open(p any, index string) (games.Space, error) {
	sp, err := g.Game.Open(p, index)
	return dropMove{sp.(games.TierSpace)}, err
}

type dropMove struct{ games.TierSpace }

func (d dropMove) Moves(state string) ([]games.Move, values.Outcome, error) {
	ms, over, err := d.TierSpace.Moves(state)
	if len(ms) > 1 {
		ms = ms[1:]
	}
	return ms, over, err
}

// lookupNeverOver: the lookup never says a position is over.
type lookupNeverOver struct{ tictactoe.Game }

func (g lookupNeverOver) Open(p any, index string) (games.Space, error) {
	sp, err := g.Game.Open(p, index)
	return neverOver{sp.(games.TierSpace)}, err
}

type neverOver struct{ games.TierSpace }

func (n neverOver) Moves(state string) ([]games.Move, values.Outcome, error) {
	ms, _, err := n.TierSpace.Moves(state)
	return ms, 0, err
}

// sizeOffByOne: TierSize says one slot more than the table space has.
type sizeOffByOne struct{ tictactoe.Game }

func (g sizeOffByOne) TierSize(t games.Tier) uint64 { return g.Game.TierSize(t) + 1 }

// overWithMoves: the build marks positions over without removing their moves.
type overWithMoves struct{ tictactoe.Game }

func (g overWithMoves) NewTierWorker() games.TierWorker {
	return overMoves{g.Game.NewTierWorker()}
}

type overMoves struct{ games.TierWorker }

func (w overMoves) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	w.TierWorker.Children(t, lo, hi, b)
	if len(b.Over) == 0 && hi > lo && t < 9 {
		b.Over = append(b.Over, games.Over{At: 0, Outcome: values.Draw})
	}
}

// orderDropsOver: an order of its own (games.OrderedTierWorker) that closes positions over
// by the rules as ordinary ones.
type orderDropsOver struct{ tictactoe.Game }

func (g orderDropsOver) NewTierWorker() games.TierWorker {
	return dropOverOrder{g.Game.NewTierWorker()}
}

type dropOverOrder struct{ games.TierWorker }

func (w dropOverOrder) ChildrenInOrder(t games.Tier, lo, hi uint64, slots []uint64, b *games.ChildBatch) []uint64 {
	w.Children(t, lo, hi, b)
	b.Over = b.Over[:0]
	for s := lo; s < hi; s++ {
		slots = append(slots, s)
	}
	return slots
}

// endsInWin: moves that end the game as a win for the side then to move, in a game that
// does not declare wins over by the rules.
type endsInWin struct{ tictactoe.Game }

func (g endsInWin) NewTierWorker() games.TierWorker { return winEnds{g.Game.NewTierWorker()} }

type winEnds struct{ games.TierWorker }

func (g endsInWin) Open(p any, index string) (games.Space, error) {
	sp, err := g.Game.Open(p, index)
	return winEndMoves{sp.(games.TierSpace)}, err
}

type winEndMoves struct{ games.TierSpace }

func (w winEndMoves) Moves(state string) ([]games.Move, values.Outcome, error) {
	ms, over, err := w.TierSpace.Moves(state)
	for i := range ms {
		ms[i] = games.Move{Name: ms[i].Name, End: values.Win}
	}
	return ms, over, err
}

func (w winEnds) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	w.TierWorker.Children(t, lo, hi, b)
	for i := range b.Pos {
		b.Pos[i] = games.TierPosition{Tier: games.GameOver, Slot: games.EndWin}
	}
}

// allHoles: a lookup whose StateOf calls every slot a hole (so nothing would be checked).
type allHoles struct{ tictactoe.Game }

func (g allHoles) Open(p any, index string) (games.Space, error) {
	sp, err := g.Game.Open(p, index)
	return holes{sp.(games.TierSpace)}, err
}

type holes struct{ games.TierSpace }

func (holes) StateOf(uint64) (string, bool) { return "", false }

// TestCheckTieredFindsFaults: the example game passes the whole contract, and each fault
// above is found and named.
func TestCheckTieredFindsFaults(t *testing.T) {
	t.Parallel()
	if msg := check(t, tictactoe.Game{}); msg != "" {
		t.Fatalf("tic-tac-toe fails the contract: %s", msg)
	}
	for _, tc := range []struct {
		g    games.TieredGame
		want string
	}{
		{lookupDropsMove{}, "the lookup's moves lead to"},
		{lookupNeverOver{}, "the lookup says over"},
		{sizeOffByOne{}, "TierSize says"},
		{overWithMoves{}, "over by the rules but lists"},
		{orderDropsOver{}, "a position of the order"},
		{endsInWin{}, "which is no end"},
		{allHoles{}, "every one of its"},
	} {
		msg := check(t, tc.g)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%T: CheckTiered says %q, want a failure saying %q", tc.g, msg, tc.want)
		}
	}
}
