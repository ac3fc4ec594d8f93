package index

import (
	"slices"
	"testing"
)

// reachable8 returns the lex ranks of the boards (tile per cell, 0 the blank)
// reachable from the 8-puzzle goal 1 2 3 4 5 6 7 8 _, in BFS order, with moves
// generated locally (blankMoves in zobrist_test.go).
func reachable8() []uint64 {
	lex := NewLex(9)
	goal := []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}
	seen := make([]bool, lex.Size())
	seen[lex.Rank(goal)] = true
	queue := []uint64{lex.Rank(goal)}
	var b [9]uint8
	for head := 0; head < len(queue); head++ {
		lex.Unrank(queue[head], b[:])
		blank := slices.Index(b[:], 0)
		for _, from := range blankMoves(blank, 3, 3) {
			b[blank], b[from] = b[from], 0
			if r := lex.Rank(b[:]); !seen[r] {
				seen[r] = true
				queue = append(queue, r)
			}
			b[from], b[blank] = b[blank], 0
		}
	}
	return queue
}

// TestLexHalfEightPuzzle documents how lex-half fits a sliding-tile puzzle. Listed
// as the position of each tile (q[tile] = cell, the blank as tile 0), the two
// boards of a slot differ by swapping the cells of the two highest tiles, which
// flips solvability, so the 9!/2 reachable boards fill the 9!/2 slots exactly once;
// the reachable member is the one whose parity XOR the blank cell's colour
// ((row+col) mod 2) matches the goal's. Listed as the tile in each cell, a slot
// whose last two cells hold the blank pairs two boards one move apart: both are
// reachable, and lex-half collides.
func TestLexHalfEightPuzzle(t *testing.T) {
	t.Parallel()
	ranks := reachable8()
	if len(ranks) != 181440 {
		t.Fatalf("%d reachable boards, want 9!/2 = 181440", len(ranks))
	}
	lex, h := NewLex(9), NewLexHalf(9)
	colour := func(cell uint8) int { return int(cell/3+cell%3) & 1 }
	byCell := make([]int, h.Size())
	byTile := make([]bool, h.Size())
	want := -1 // parity(q) XOR colour(blank), the same for every reachable board
	b, q, u := make([]uint8, 9), make([]uint8, 9), make([]uint8, 9)
	for _, r := range ranks {
		lex.Unrank(r, b)
		byCell[h.Rank(b)]++
		for cell, tile := range b {
			q[tile] = uint8(cell)
		}
		inv := Parity(q) ^ colour(q[0])
		if want < 0 {
			want = inv
		} else if inv != want {
			t.Fatalf("board %v: parity XOR colour = %d, want %d", b, inv, want)
		}
		slot := h.Rank(q)
		if byTile[slot] {
			t.Fatalf("board %v: slot %d taken twice", b, slot)
		}
		byTile[slot] = true
		// Recover the board from its slot as a builder would.
		if par := h.UnrankPair(slot, u); par^colour(u[0]) != want {
			u[7], u[8] = u[8], u[7]
		}
		if !slices.Equal(u, q) {
			t.Fatalf("slot %d unranks to %v, want %v", slot, u, q)
		}
	}
	collisions := 0
	for _, c := range byCell {
		if c > 1 {
			collisions++
		}
	}
	if collisions == 0 {
		t.Errorf("tile-per-cell form: expected lex-half collisions (blank in the last two cells)")
	}
	t.Logf("tile-per-cell form: %d of %d slots hold two reachable boards", collisions, h.Size())
}
