// Package milloracle is an independent oracle for the values of Nine Men's
// Morris (Mühle) endgame positions in the moving phase. It exists to check the
// fast solver (games/mill and the builder) and shares nothing with it: it does
// not import or read games/mill, builder, index or any other package of the
// project, and it has its own board, adjacency, mills, move generation,
// position index and board symmetries, all written straight from the rules in
// DESIGN.md ("Nine Men's Morris (Mühle)"). It trades speed for being plainly
// right.
//
// # Rules
//
// Points 1..24 as in DESIGN.md; bit p-1 of a stone mask stands for point p.
// A move slides a stone to an adjacent empty point; a side with exactly 3
// stones flies to any empty point. A move that closes a mill (the moved stone
// completes three of its own in a line) removes exactly one opponent stone,
// not one standing in an opponent mill unless every opponent stone does. The
// side to move with 2 stones, or with no legal move, has lost. Repetition is a
// draw. (A slide cannot close two mills at once — every neighbour of a point
// lies in that point's two mills — and a flying side has too few stones, so
// double mills never arise in the moving phase.)
//
// # Values
//
// For the side to move: Win, Loss or Draw, and for wins and losses the
// remoteness, the plies to the end under optimal play — the winner takes the
// fastest win, the loser the slowest loss. A terminal position is a loss in
// 0; a win in r is 1 + the least remoteness of the successors that are
// losses; a loss in r is 1 + the largest remoteness of its successors, all
// wins; any other position is a draw.
//
// # Method
//
// Plain forward value iteration over raw positions. A position is (white
// stones, black stones, side to move): both colours stored, no symmetry
// reduction, no colour normalisation, no un-moves or predecessors. The
// positions with w white and b black stones, both sides to move, form the
// table (w, b), indexed by the colexicographic ranks of the two masks (with
// holes where they overlap; see index.go). Moves without capture stay in the
// table; captures lead to (w-1, b) or (w, b-1). The tables are solved one at
// a time by increasing w+b, so every capture lands in a finished table (or on
// a 2-stone terminal, a loss in 0, which is not stored).
//
// Within a table, round 0 marks the positions without a legal move as losses
// in 0; round r ≥ 1 passes over the undecided positions, regenerates each
// one's successors and decides it a win in r if some successor is a loss in
// r-1, or a loss in r if every successor is a win in at most r-1. Losses
// have even remoteness and wins odd, so odd rounds look only for wins and
// even rounds only for losses. Both rules need a successor with remoteness
// exactly r-1: a round is skipped when no table it can reach holds one, and
// the win check leaves out the captures (or the other moves) when only this
// table (or only the lower ones) does. The table is done after a round that
// decides nothing, once the round is past the largest remoteness of the
// lower tables; the positions never decided are draws.
//
// Cost: one byte per slot (C(24,w)·C(24,b)·2 slots for table (w, b)), 664 MB
// for all tables up to 8 stones. On one (shared) core sector 3-3 takes about
// 12 s, the tables up to 7 stones about 7 minutes and up to 8 stones about 35.
//
// # Checks
//
// The tests check the board against the drawing, derive the 16 board
// symmetries (the 8 of the square times the swap of the inner and outer
// squares) from coordinates and check each is an automorphism of adjacency
// and mills, and compare sector 3-3 with the published class counts (Gasser
// 1996: 169,626 classes, 140,621 wins, 28,736 losses, 269 draws; longest win
// 25 plies, longest loss 26). They also check every stored value against the
// definition from its successors' stored values on random and extreme
// positions, invariance under the board symmetries, and that the White and
// Black tables, solved separately, agree.
//
// ClassStats gives, for the engineers comparing the fast solver with this
// oracle, the class-level statistics of any solved sector.
package milloracle
