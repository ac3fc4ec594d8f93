// Package mill plays the Morris family (Mühle): Nine Men's Morris and its relatives, each
// a data entry ([Rules]: a [Board] of points, lines, mills and symmetries, the stones of
// a side, flying, whether a mill wins), never a copy of the code. It holds the boards and
// their mills, moves, placements and un-moves of both phases, the notation, the board symmetries,
// per-sector class ranks that number the positions up to symmetry, and the game as a
// graph of tiers ([Game] is a games.TieredGame: a tier is a sector). It imports nothing
// of the project but package games (the capability it asserts) and internal/notation.
//
// # The family
//
// A rule set is compiled once, on first use, into tables (the adjacency and mills of each
// point, the symmetries as permutations and as byte tables, the sector rankings); the
// per-position code reads them and never asks which rule set it plays. The symmetries of
// a board are computed as the permutations of its points that keep its lines and map
// mills to mills ([Automorphisms]); Nine Men's Morris's 16 are listed in the package's
// numbering and a test checks the listing against the computed group. The rule sets
// ([RuleSets], `--rules NAME`):
//
//   - nine ([Nine], the default, the registered game): the board below, 9 stones, flying
//     at 3 stones on the board;
//   - three ([Three]): a square of 8 points (1–8) and its centre (9), joined to all 8; the
//     3 rows, 3 columns and 2 diagonals are the 8 mills; 3 stones, no flying; closing a
//     mill wins at once (a move into games.GameOver), no stone is removed; 8 symmetries;
//   - five and six ([Five], [Six]): two squares (1–8 outer, 9–16 inner) joined at their
//     midpoints, the 8 sides are mills; 5 or 6 stones, no flying; otherwise Nine's rules;
//     16 symmetries;
//   - seven ([Seven]): Six's board and a centre point (17) joined to the inner square's
//     midpoints; the mills are the 8 sides and the 2 lines of three through the centre
//     (10-17-14, 12-17-16: the cross the centre adds; see sevenBoard for why no other
//     lines of the spokes); 7 stones, flying at 3 as in Nine; 8 symmetries;
//   - ten ([Ten]): Nine's board and rules, 10 stones a side;
//   - eleven and twelve ([Eleven], [Twelve]): Nine's board and the four diagonal lines
//     through the squares' corners (1-9-17, 3-11-19, 5-13-21, 7-15-23), each a mill: 20
//     mills, 16 symmetries; 11 or 12 stones, flying as in Nine; with 12 the last
//     placement may fill the board, which then draws (a move into games.GameOver with
//     games.EndDraw; Rules.FullBoardDraw).
//
// Every board numbers its points ring by ring from the outside, clockwise from each
// ring's top-left corner, a centre point last, so that a ring is one byte of a mask. The
// zero Game plays Nine Men's Morris; [ForRules] gives the others. A set records its rule
// set in its rules fingerprint (Nine's unchanged since the placement phase) and, but for
// Nine, in each table's parameters ({"rules":"three","w":3,"b":3}), so that a reader
// plays the rules the set was built under (games.ForRules) and refuses a set of rules it
// does not know. The package's functions and the methods of [Sym] play Nine Men's Morris;
// the methods of [Rules] (Parse, Format, Successors, Sector…) any rule set.
//
// # Nine Men's Morris's board
//
// The 24 points are numbered 1..24 (docs/DESIGN.md, "Nine Men's Morris"): the outer
// square 1–8 clockwise from its top-left corner, the middle square 9–16 and the inner
// square 17–24 likewise:
//
//	1-----------2-----------3
//	|   9-------10------11  |
//	|   |   17--18--19  |   |
//	8---16--24      20--12--4
//	|   |   23--22--21  |   |
//	|   15------14------13  |
//	7-----------6-----------5
//
// In code a [Point] is 0..23 and point p (written p+1) is bit p of a uint32 mask, so each
// square is one byte of the mask: outer byte 0, middle byte 1, inner byte 2; within a
// byte, bit j runs clockwise from the top-left corner (even j corners, odd j midpoints).
// Consecutive points of a square are adjacent (8 next to 1), and the cross lines 2-10-18,
// 4-12-20, 6-14-22, 8-16-24 join the midpoints: 32 lines, [Adjacent]. The 16 mills,
// [Mills], are the four sides of each square and the four cross lines; every point lies
// on two ([MillsAt]). [InMill] and [MillStones] test masks against them.
//
// # Rules and normalisation
//
// A position is two disjoint masks: own, the stones of the side to move (w of them), and
// opp, the opponent's (b); in the moving phase 3 ≤ w, b ≤ 9. A move slides a stone to an
// adjacent empty point, or flies it to any empty point when its side has exactly 3 stones.
// If the moved stone closes a mill, the move also removes one opponent stone, chosen among
// those in no mill of the opponent, or among all when all are in mills. (Two mills closed
// at once would still remove one stone, but a slide or a flight with 3 stones cannot close
// two in the moving phase.) A side with no legal move on its turn loses, and so does a
// side left with 2 stones.
//
// In the placement phase each side starts with 9 stones in hand, White first; the side to
// move holds wh ≥ 1 stones and the opponent bh (wh = bh with White to move, wh = bh + 1
// with Black). [Placements] lists a stone placed on each empty point and, where it closes
// a mill (one or two at once), one successor per opponent stone it may remove by the rule
// above (none when the opponent has no stone on the board). A placement leads from sector
// (w, b, wh, bh) to (b, w+1, bh, wh−1), or (b−1, w+1, bh, wh−1) with a capture; a capture
// that leaves the opponent fewer than 3 stones on the board and in hand ends the game
// (games.GameOver). The hands only shrink, so placement sectors never reach each other
// back: each is solved in one pass from its children, in an order of its own in which
// the children of consecutive positions lie close together ([games.OrderedTierWorker],
// order.go); the placement sectors of one board are siblings ([games.SiblingTiers]). The
// last placement leads into the moving phase.
//
// [Successors] lists the moves of own, one per removable stone for a capture, each as
// the position after it normalised to the new side to move: (opp minus the removed
// stone, own after the move), sector (b, w) or (b−1, w). A capture from b = 3 gives a
// successor whose side to move has 2 stones: terminal, lost for it. [Predecessors] lists
// the un-moves: the opponent moved last from an empty point f to one of its stones t
// (with the opponent's stone count deciding flying). If t is in no mill of opp the move
// closed none and the predecessor is (opp with t back on f, own), sector (b, w); if t is
// in a mill, the move captured a stone of own on an empty point c ≠ f, legally so in the
// predecessor, which is (opp with t back on f, own plus c), sector (b, w+1), only when
// w < 9. Both append to a caller's buffer and do not allocate.
//
// # Notation
//
// A position is written as 24 characters W, B or . for points 1..24, a space and the side
// to move: "WWW.....BBB............. B" ([Parse], [Position.String]); in the placement
// phase the stones in hand follow, "........................ W W:9 B:9" for the empty
// board. A [Position] holds the masks by colour and the hands; [Position.OwnOpp] and
// [FromOwnOpp] convert to and from the side to move's view. A move is written "a-b", or
// "a-bxc" when it removes the stone on c, a placement "a" or "axc" ([Move.String],
// [ParseMove]).
//
// # Symmetries
//
// The board has 16 symmetries ([Sym]): the 8 symmetries of the square (rotations by
// quarter turns and reflections) times the swap of the inner and outer squares (points
// 1–8 ↔ 17–24, the middle square in place). The square symmetries permute the bits within
// each byte of a mask the same way and the swap exchanges bytes 0 and 2, so [Sym.Apply]
// maps a mask with three lookups in a 256-entry table. The canonical member of a class
// is the image with the smallest own mask as an integer and, among those, the smallest
// opp mask ([Canonical]).
//
// # Class ranks
//
// A [Sector] (w, b) numbers the symmetry classes of its positions without holes: Slots
// equals [ClassCount], the Burnside count (3-3 has 169,626 classes; the 49 sectors
// 8,904,593,601, [TotalClassCount]). For each w a table over the C(24, w) own masks, by
// colex rank, gives the mask's own class (the class of own patterns) and a symmetry g
// mapping it to the class's canonical pattern. The canonical opp is the smallest image
// of opp under the whole coset {h∘g : h fixes the canonical pattern}, not under g alone,
// when the pattern has a non-trivial stabiliser. It is ranked in colex order among the
// b-subsets of the 24−w free points. Own classes with a trivial stabiliser (most of them)
// come first, C(24−w, b) slots each, so their slot is class·C(24−w, b) + colex rank. For
// the others a bitmap over their placements marks the smallest placement of each orbit
// of the stabiliser, and a rank/select directory over it gives the slot (Rank) and back
// (Unrank). Tables are built on first use of a sector (well under a second) and shared;
// the largest take about 5 MB for the own masks of w = 9 and 6 MB for a sector.
package mill
