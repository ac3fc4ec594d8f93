// Package milloracle is an independent oracle for the values of Nine Men's
// Morris (Mühle) positions: endgame positions of the moving phase (Solve), and
// whole games from the empty board, placement phase included, with n stones a
// side (SolveGame; 9 in the standard game, 3 and 4 in the tests). It exists
// to check the fast solver (games/mill and the builder) and shares nothing
// with it: it does not import or read games/mill, builder, index or any other
// package of the project, and it has its own board, adjacency, mills, move
// generation, position index and board symmetries, all written straight from
// the rules in docs/DESIGN.md ("Nine Men's Morris"). It trades speed for
// being plainly right.
//
// # Rules
//
// Points 1..24 as in docs/DESIGN.md; bit p-1 of a stone mask stands for point p.
// A move slides a stone to an adjacent empty point; a side with exactly 3
// stones flies to any empty point. A move that closes a mill (the moved stone
// completes three of its own in a line) removes exactly one opponent stone,
// not one standing in an opponent mill unless every opponent stone does. The
// side to move with 2 stones, or with no legal move, has lost. Repetition is a
// draw. (A slide cannot close two mills at once — every neighbour of a point
// lies in that point's two mills — and a flying side has too few stones, so
// double mills never arise in the moving phase.)
//
// Whole games (SolveGame(n)): each side starts with n stones in hand and White
// places first. While a side holds stones its turn places one on an empty
// point; a placement that closes a mill (one or two at once) removes one
// opponent stone by the rule above (when the opponent has no stone on the
// board, which only unreachable positions show, it removes nothing). After
// the 2n placements the moving phase begins with White to move; flying (3
// stones on the board) applies only then. A side to move whose stones on the
// board and in hand number fewer than 3 has lost (a loss in 0: with n = 3 a
// single capture ends the game), as has a side to move with no legal move.
// The moving phase of an n-stone game has at most n stones a side. A
// position is (white stones, black stones, White's hand, Black's hand, side
// to move); in the placement phase White is to move exactly when the hands
// are equal, Black holding one more when Black is to move. Game.Lookup says
// which positions are covered.
//
// # Values
//
// For the side to move: Win, Loss or Draw, and for wins and losses the
// remoteness, the plies to the end under optimal play — the winner takes the
// fastest win, the loser the slowest loss. A terminal position is a loss in
// 0; a win in r is 1 + the least remoteness of the successors that are
// losses; a loss in r is 1 + the largest remoteness of its successors, all
// wins; any other position is a draw. In whole games the remoteness counts
// the plies of both phases.
//
// The empty board (White to move), as computed here: with 3 stones a side a
// win for White in 23 plies; with 4 a draw (of the positions reached after
// the 8 placements, 48.3 million of 49.1 million are draws); with 5 not
// computed (see the cost below). No value is published for n < 9 to compare
// with; for n = 3 the tests solve the game a second way (below).
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
// lower tables; the positions never decided are draws. A round is split by
// white mask among GOMAXPROCS goroutines, which only read the tables; its
// decisions are stored when it is over (they never count in the round that
// makes them, so this changes nothing).
//
// Whole games: the moving phase first, as above, for the tables with 3..n
// stones a side (a capture keeps both bounds). Then the placement phase, one
// backward pass: placement positions never repeat (the hands only shrink),
// so the positions of the last placement ply (2n-1) are solved first from the
// moving-phase tables, and each earlier ply from the finished next one, each
// position once, straight from the definition above. The positions of ply k
// (White places at even plies) with w white and b black stones form the
// placement table (k, w, b), indexed like a moving-phase table without the
// side bit; a side to move with fewer than 3 stones in all is a loss in 0,
// not stored. Then a forward search from the empty board marks, ply by ply
// up to the start of the moving phase (ply 2n), the positions legal play
// reaches (a bit per slot), and counts their values by sector (the stones on
// the board and in hand of each side): Game.Levels and Game.PlyStats.
//
// Cost: one byte per slot (C(24,w)·C(24,b)·2 slots for table (w, b)), 664 MB
// for all tables up to 8 stones. On one (shared) core sector 3-3 takes about
// 12 s, the tables up to 7 stones about 7 minutes and up to 8 stones about 35
// (measured with one goroutine). A whole game keeps its moving-phase tables (3..n a side) and its placement
// tables (C(24,w)·C(24,b) bytes each). For n = 3: 9 MB, 0.5 million
// placement positions, 12 s of CPU for the whole solve (11 of them the
// moving phase), about 38 s for the default test run on one core. For n = 4:
// 370 MB, 22 million placement positions; on two cores heavily shared with
// other work (load 5 to 17) the moving phase took 19 minutes of wall time
// (4-4 alone 6.5), the placement phase 10 s, the forward search 5 s, and
// TestLongGame 19.5 minutes in all. For n = 5 the moving phase alone needs
// tables 4-5, 5-4 (0.9 GB each) and 5-5 (3.6 GB), and the placement tables
// of the last two plies 0.9 GB: about 7 GB and, by the times above, hours of
// CPU; not run here.
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
// For whole games (game_test.go, n = 3 in the default run): the placement
// rules on hand-made positions (a double mill takes one stone; the
// removal rule); every stored placement value against the definition from
// its successors, read through Game.Lookup, and against its 16 board images;
// the moving-phase table against Solve(6)'s, solved separately; the terminal
// rules and the errors of Lookup; and a second solve of the whole game by a
// memoised recursive minimax from the empty board over a 24-cell board with
// its own placement and mill rules, taking the moving-phase values from
// Solve(6): the empty board and every position it reaches must have the same
// value, and each ply the same number of positions as the forward search.
// Under the build tag long, TestLongGame (MILLORACLE_GAME_N=4, or
// TABLESMITH_HUGE=1) solves the n-stone game and checks random positions of
// every placement and moving table the same ways.
//
// ClassStats gives, for the engineers comparing the fast solver with this
// oracle, the class-level statistics of any solved sector.
package milloracle
