package morrisoracle

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestIndependent checks that the oracle imports nothing of the project: it shares only
// the description of the games with the solver it checks.
func TestIndependent(t *testing.T) {
	t.Parallel()
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			if strings.Contains(im.Path.Value, "tablesmith") {
				t.Errorf("%s imports %s", f.Name(), im.Path.Value)
			}
		}
	}
}

// TestBoards checks the boards against their descriptions: the lines and mills counted,
// every mill a line of three (its middle point joined to both ends).
func TestBoards(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r            Rules
		lines, mills int
	}{{Three, 16, 8}, {Five, 20, 8}, {Six, 20, 8}, {Seven, 24, 10}} {
		g := newGame(c.r)
		if len(c.r.Board.Lines) != c.lines || len(g.mills) != c.mills {
			t.Errorf("%s: %d lines, %d mills; want %d, %d", c.r.Name, len(c.r.Board.Lines), len(g.mills), c.lines, c.mills)
		}
		for _, m := range c.r.Board.Mills {
			if g.adj[m[1]]>>m[0]&1 == 0 || g.adj[m[1]]>>m[2]&1 == 0 {
				t.Errorf("%s: mill %v is no line", c.r.Name, m)
			}
		}
	}
}

// TestThreeEmptyBoard solves Three Men's Morris from its empty board: the first player
// wins by taking the centre (point 9) in 9 plies; a midpoint loses, a corner draws.
func TestThreeEmptyBoard(t *testing.T) {
	t.Parallel()
	empty := Pos{OwnHand: 3, OppHand: 3}
	v := Solve(Three, []Pos{empty})
	if got := v[empty]; got != (Value{Win, 9}) {
		t.Fatalf("the empty board: %v, want a win in 9", got)
	}
	for p, want := range map[int]Value{8: {Loss, 8}, 1: {Win, 7}, 0: {Draw, 0}} {
		if got := v[Pos{Opp: 1 << p, OwnHand: 3, OppHand: 2}]; got != want {
			t.Errorf("after White's first stone on %d: %v, want %v", p+1, got, want)
		}
	}
}
