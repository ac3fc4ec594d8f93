// Package index maps states to slots: an index scheme is a bijection (or an
// injection, when it leaves holes) between the states of a space and the integers
// [0, Size). The builders mark states in bitsets addressed by slot, and the table
// files store one value per slot, so a scheme fixes both the memory of a build and
// the layout of a table.
//
// Permutation schemes (PermScheme) rank permutations of 0..n-1:
//
//	name          type            n      slots     holes  order / method
//	lex           *Lex            1..20  n!        no     lexicographic, O(n) (Korf & Schultze 2005)
//	lex-half      *LexHalf        2..20  n!/2      no     lex rank >> 1: one slot per parity pair
//	mr            *MyrvoldRuskey  1..20  n!        no     Myrvold & Ruskey (2001), O(n), swaps
//	branch767359  *Branch767359   9      767,359   yes    the seed's 8-puzzle branch hash, 9! states
//
// For n = 9 that is 362,880 slots for lex and mr, 181,440 for lex-half and 767,359
// (~2.11 per state) for branch767359. ByName and Names select a scheme by name.
//
// lex-half halves a space that holds exactly one of each pair of permutations
// differing by a swap of their last two entries (lex ranks 2k and 2k+1), e.g. the
// even permutations. A sliding-tile puzzle is such a space when its state is listed
// as the cell of each tile (blank as tile 0, so the last two entries are tiles),
// not as the tile in each cell: see LexHalf.
//
// PartialPerm ranks k distinct values of 0..n-1 (the cells of a pattern database's
// tiles) lexicographically in O(k): n!/(n-k)! slots, no holes. With the blank's cell
// as the last of k+1 values, slot / (n-k) is the rank of the first k, which is how a
// pattern database folds the blank's position away.
//
// Zobrist is a hash, not a rank: 64-bit XOR of random per-(cell, tile) keys, updated
// in O(1) per move, for use with a hash set. It cannot be inverted.
//
// Parity and Inversions give the permutation parity used for solvability checks.
//
// The O(n) methods keep per-value counts or the list of unused values as the 4-bit
// nibbles of one machine word (n <= 16), or as a bitmask with popcount and select
// (larger n), and turn divisions by constants into multiplications.
//
// All rank and unrank methods are allocation-free and safe for concurrent use: the
// schemes are immutable after construction. They trust their input: a Rank argument
// must be a permutation of 0..n-1 of length n (anything else gives an unspecified
// slot or a panic), and an Unrank destination must have length at least n.
package index
