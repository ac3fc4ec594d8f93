package index

// LexHalf is the parity-halved lexicographic scheme: Size is n!/2, and
// Rank(p) = lexrank(p) >> 1 for a permutation of either parity. The permutations at
// lex ranks 2k and 2k+1 differ exactly by swapping their last two entries, so they
// have opposite parities and one slot holds one of each. No holes.
//
// It is a bijection for any space holding exactly one member of each such pair:
// the even permutations (Unrank), or the odd ones, or a class chosen per state
// (UnrankPair). For a sliding-tile puzzle, list a state as the cell of each tile,
// q[tile] = cell with the blank as tile 0: then the pair differs by swapping two
// tiles, which flips solvability, and the reachable member is the one whose parity
// XOR the blank cell's colour ((row+col) mod 2) equals the goal's (on any board
// width, as every move flips both). Listed as the tile in each cell instead, the
// blank can sit in the last two cells and the pair is two boards one move apart,
// both reachable: lex-half then collides (20,160 slots for the 8-puzzle).
type LexHalf struct {
	n    int
	size uint64
}

// NewLexHalf returns the parity-halved lexicographic scheme for permutations of
// length n, 2 <= n <= 20; it panics for any other n.
func NewLexHalf(n int) *LexHalf {
	checkN("NewLexHalf", n, 2, maxN)
	return &LexHalf{n: n, size: factorials[n] / 2}
}

// Name returns "lex-half".
func (h *LexHalf) Name() string { return "lex-half" }

// N returns the permutation length.
func (h *LexHalf) N() int { return h.n }

// Size returns n!/2.
func (h *LexHalf) Size() uint64 { return h.size }

// HasHoles returns false: every slot below n!/2 holds one permutation of each parity.
func (h *LexHalf) HasHoles() bool { return false }

// Rank returns lexrank(p) >> 1, for p of either parity.
func (h *LexHalf) Rank(p []uint8) uint64 {
	r, _ := lexRank(p[:h.n])
	return r >> 1
}

// RankParity returns Rank(p) and the parity of p (0 even, 1 odd), which the rank
// computes anyway (the sum of the Lehmer digits).
func (h *LexHalf) RankParity(p []uint8) (slot uint64, parity int) {
	r, digits := lexRank(p[:h.n])
	return r >> 1, int(digits & 1)
}

// Unrank fills p (len n) with the even permutation at slot; it returns false when
// slot >= n!/2. Use UnrankPair when the reachable class is not the even one.
func (h *LexHalf) Unrank(slot uint64, p []uint8) bool {
	if slot >= h.size {
		return false
	}
	p = p[:h.n]
	if lexUnrank(2*slot, p)&1 != 0 {
		p[h.n-2], p[h.n-1] = p[h.n-1], p[h.n-2]
	}
	return true
}

// UnrankPair fills p (len n) with the permutation at lexicographic rank 2*slot and
// returns its parity (0 even, 1 odd), computed for free as the sum of its Lehmer
// digits mod 2. The other member of the slot, at lex rank 2*slot+1, is p with
// p[n-2] and p[n-1] swapped and has the opposite parity: a caller whose class is
// not "even permutations" swaps those two entries itself when the returned parity
// is not the one it wants (for a sliding-tile puzzle: when parity XOR the colour of
// the blank's cell p[0] differs from the goal's; see LexHalf). It panics when
// slot >= Size().
func (h *LexHalf) UnrankPair(slot uint64, p []uint8) (parity int) {
	if slot >= h.size {
		panic("index.LexHalf.UnrankPair: slot out of range")
	}
	return int(lexUnrank(2*slot, p[:h.n]) & 1)
}
