package mill

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// The Morris family as data. A [Board] is what a board is: its points, the lines joining
// them (a stone slides along one to a neighbour), its mills, and its symmetries, which
// are computed ([Automorphisms]: the permutations of the points that keep the lines and
// map mills to mills) and, where listed, checked against the listing. A [Rules] is a
// rule set of the family: a board, the stones of a side, flying, and the rules that set
// the family's games apart (a mill wins; a full board draws). Everything the solver does
// per position reads tables compiled once per rule set (compile): the adjacency and mill
// masks of each point, the symmetries as permutations and as byte tables, and the
// rankings of the sectors; no per-position code asks which rule set it plays.

// A Board is a Morris board as data: Points points (at most 24, numbered ring by ring
// from the outside, clockwise from each ring's top-left corner, a centre point last),
// Lines the pairs of adjacent points, Mills the lines of three points, all 0-based. Syms,
// when not nil, lists the board's symmetries (as point permutations, the identity first)
// in the order the package numbers them; a test checks that it is exactly the group
// Automorphisms computes. Without a listing the computed group is the board's, in
// increasing lexicographic order of the permutations.
type Board struct {
	Name   string
	Points int
	Lines  [][2]int
	Mills  [][3]int
	Syms   [][]int
}

// Flying says when a side flies (moves a stone to any empty point) in the moving phase.
type Flying uint8

const (
	// FlyNever: stones only slide.
	FlyNever Flying = iota
	// FlyAtThree: a side with exactly 3 stones on the board flies (in split phases it
	// moves only with none in hand).
	FlyAtThree
	// FlyAtThreeInTotal: a side with exactly 3 stones on the board and in hand together
	// flies (Lasker Morris, where a side may move while it still holds stones).
	FlyAtThreeInTotal
)

// Rules is one rule set of the family. The exported fields are the data entry; the
// tables the solver reads are compiled from them on first use (Rules.compiled).
type Rules struct {
	Name   string // the name --rules takes: "nine"
	Title  string // "Nine Men's Morris"
	Board  *Board
	Stones int // stones of a side, all in hand at the start
	Flying Flying
	// MillWins: the move that closes a mill wins the game at once (Three Men's Morris);
	// no stone is ever removed.
	MillWins bool
	// FullBoardDraw: a placement that fills the board (the last of the placement phase,
	// closing no mill) ends the game in a draw (Twelve Men's Morris).
	FullBoardDraw bool
	// Merged: the phases are merged (Lasker Morris): every turn places a stone from the
	// hand or moves one on the board, while either is possible; otherwise a side places
	// all its stones before it moves any.
	Merged bool
	// Text is the rules written out; its fingerprint names the rule set in every set
	// built under it (RulesID).
	Text string
	// idPrefix is the fingerprint's prefix.
	idPrefix string

	once sync.Once
	v    *variant
}

// symMap is a symmetry as it maps a mask: byte i through table tab[i], shifted to the
// byte at bit shift[i].
type symMap struct {
	tab   [3]*[256]uint8
	shift [3]uint8
}

// noMill pads a point's mills: no mask of the board's points holds it.
const noMill uint32 = 1 << 31

// MaxMillsAt is the most mills through one point of any board of the family.
const MaxMillsAt = 4

// variant are a rule set's compiled tables and its caches of rankings.
type variant struct {
	r        *Rules
	points   int
	full     uint32
	stones   int
	flyAt    int // a side with this many stones on the board flies in the moving phase (0: never)
	millWins bool
	// merged: every turn may place or move (Rules.Merged); flyTotal: a side flies with 3
	// stones on the board and in hand together (FlyAtThreeInTotal), else with flyAt on
	// the board.
	merged   bool
	flyTotal bool
	// drawFull is the mask of a board whose filling draws: the board's points where a
	// full board draws, else a mask no position holds.
	drawFull uint32
	adjacent [Points]uint32
	millList []uint32
	// The mills as a set of mill numbers (bit k for millList[k], at most 24 mills):
	// millIn[i][x] holds the mills whose points in byte i of a mask are all set in x (a
	// mill with no point there counts as set), so the complete mills of a mask are the
	// AND of three lookups; millUnion[i][s] is the union of the points of mills
	// 8i..8i+7 in the set s; pointMills[p] the mills through p.
	millIn     [3][256]uint32
	millUnion  [3][256]uint32
	pointMills [Points]uint32
	// millsAt[p]: the mills through p, padded with noMill.
	millsAt [Points][MaxMillsAt]uint32
	nsyms   int
	symPerm [NumSyms][Points]Point
	// A symmetry maps the points of each byte of a mask (a ring, or a centre) onto the
	// points of one byte: symMaps[g] holds, for each byte of a mask, the 256-entry table
	// that permutes its bits (one of byteTab) and the shift to the byte it lands in. The
	// family's boards have few distinct tables (Nine's: the 8 symmetries of a square),
	// so they stay in a few kilobytes of cache.
	symMaps    [NumSyms]symMap
	byteTab    [3 * NumSyms][256]uint8
	symCompose [NumSyms][NumSyms]Sym
	symInverse [NumSyms]Sym

	ownOnce     [maxStones + 1]sync.Once
	ownTable    [maxStones + 1]*ownClasses
	sectorOnce  [maxStones + 1][maxStones + 1]sync.Once
	sectorTable [maxStones + 1][maxStones + 1]atomic.Pointer[Sector]
	probeOnce   [maxStones + 1][maxStones + 1]sync.Once
	probeTable  [maxStones + 1][maxStones + 1]*Sector
	classCounts [Points + 1][Points + 1]atomic.Uint64
}

// compiled returns the rule set's tables, compiling them on first use.
func (r *Rules) compiled() *variant {
	r.once.Do(func() { r.v = compile(r) })
	return r.v
}

// Points returns the number of points of the rule set's board.
func (r *Rules) Points() int { return r.Board.Points }

// NumSyms returns the number of symmetries of the rule set's board.
func (r *Rules) NumSyms() int { return r.compiled().nsyms }

// SymPerm returns symmetry g of the board as a permutation of its points.
func (r *Rules) SymPerm(g Sym) []int {
	v := r.compiled()
	out := make([]int, v.points)
	for p := range out {
		out[p] = int(v.symPerm[g][p])
	}
	return out
}

// RulesID fingerprints the rule set's Text.
func (r *Rules) RulesID() string { return fingerprint(r.idPrefix, r.Text) }

// compile builds the tables of r; it panics on a board that breaks the package's limits
// or whose listed symmetries are not its automorphisms (a programming error in an entry).
func compile(r *Rules) *variant {
	b := r.Board
	n := b.Points
	if n < 1 || n > Points || r.Stones < MinStones || r.Stones > maxStones || 2*r.Stones > n {
		panic(fmt.Sprintf("mill: rule set %s: %d points, %d stones", r.Name, n, r.Stones))
	}
	v := &variant{r: r, points: n, full: 1<<n - 1, stones: r.Stones, millWins: r.MillWins, merged: r.Merged}
	switch r.Flying {
	case FlyAtThree:
		v.flyAt = 3
	case FlyAtThreeInTotal:
		v.flyAt, v.flyTotal = 3, true
	}
	if r.Merged && (r.MillWins || r.FullBoardDraw) {
		panic(fmt.Sprintf("mill: rule set %s: merged phases with a mill that wins or a full board's draw", r.Name))
	}
	v.drawFull = noMill
	if r.FullBoardDraw {
		v.drawFull = v.full
	}
	for _, l := range b.Lines {
		v.adjacent[l[0]] |= 1 << l[1]
		v.adjacent[l[1]] |= 1 << l[0]
	}
	for p := range v.millsAt {
		for i := range v.millsAt[p] {
			v.millsAt[p][i] = noMill
		}
	}
	if len(b.Mills) > 24 {
		panic(fmt.Sprintf("mill: board %s: %d mills, at most 24", b.Name, len(b.Mills)))
	}
	var count [Points]int
	for _, m := range b.Mills {
		mask := uint32(1)<<m[0] | 1<<m[1] | 1<<m[2]
		v.millList = append(v.millList, mask)
		for _, p := range m {
			if count[p] == MaxMillsAt {
				panic(fmt.Sprintf("mill: board %s: more than %d mills through point %d", b.Name, MaxMillsAt, p+1))
			}
			v.millsAt[p][count[p]] = mask
			count[p]++
		}
	}
	for k, m := range v.millList {
		for i := range 3 {
			in := uint8(m >> (8 * i))
			for x := range 256 {
				if uint8(x)&in == in {
					v.millIn[i][x] |= 1 << k
				}
			}
		}
		for s := range 256 {
			if s>>(k%8)&1 != 0 {
				v.millUnion[k/8][s] |= m
			}
		}
		for r := m; r != 0; r &= r - 1 {
			v.pointMills[bits.TrailingZeros32(r)] |= 1 << k
		}
	}
	syms := b.Syms
	if syms == nil {
		syms = Automorphisms(b)
	}
	if len(syms) > NumSyms || !slices.Equal(syms[0], identityPerm(n)) {
		panic(fmt.Sprintf("mill: board %s: %d symmetries, the identity not first", b.Name, len(syms)))
	}
	v.nsyms = len(syms)
	ntabs := 0
	for g, perm := range syms {
		for p := range Points {
			v.symPerm[g][p] = Point(p) // the points off the board stay in place
		}
		for p, q := range perm {
			v.symPerm[g][p] = Point(q)
		}
		for i := range 3 {
			// The byte the points of byte i land in (all in one, or the board breaks the
			// package's layout), and the permutation of their bits.
			var tab [256]uint8
			shift := -1
			for j := range 8 {
				q := int(v.symPerm[g][8*i+j])
				if shift < 0 {
					shift = q / 8 * 8
				} else if q/8*8 != shift {
					panic(fmt.Sprintf("mill: board %s: symmetry %d splits byte %d of a mask", b.Name, g, i))
				}
				for x := range 256 {
					if x>>j&1 != 0 {
						tab[x] |= 1 << (q - shift)
					}
				}
			}
			k := slices.Index(v.byteTab[:ntabs], tab)
			if k < 0 {
				k = ntabs
				v.byteTab[k] = tab
				ntabs++
			}
			v.symMaps[g].tab[i], v.symMaps[g].shift[i] = &v.byteTab[k], uint8(shift)
		}
	}
	for g := range v.nsyms {
		for h := range v.nsyms {
			found := false
			for k := range v.nsyms {
				if v.symPerm[k] == composePerm(v.symPerm[g], v.symPerm[h]) {
					v.symCompose[g][h], found = Sym(k), true
				}
			}
			if !found {
				panic(fmt.Sprintf("mill: board %s: the symmetries are not a group", b.Name))
			}
			if v.symCompose[g][h] == Identity {
				v.symInverse[g] = Sym(h)
			}
		}
	}
	return v
}

func identityPerm(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Automorphisms returns the symmetries of board b: the permutations of its points that
// map lines to lines (and so non-lines to non-lines) and mills to mills, in increasing
// lexicographic order (the identity first), found by backtracking point by point.
func Automorphisms(b *Board) [][]int {
	n := b.Points
	adj := make([]uint32, n)
	for _, l := range b.Lines {
		adj[l[0]] |= 1 << l[1]
		adj[l[1]] |= 1 << l[0]
	}
	mills := map[uint32]bool{}
	millsAt := make([]int, n)
	for _, m := range b.Mills {
		mills[1<<m[0]|1<<m[1]|1<<m[2]] = true
		for _, p := range m {
			millsAt[p]++
		}
	}
	perm := make([]int, n)
	var used uint32
	var out [][]int
	var place func(p int)
	place = func(p int) {
		if p == n {
			for m := range mills {
				var img uint32
				for r := m; r != 0; r &= r - 1 {
					img |= 1 << perm[bits.TrailingZeros32(r)]
				}
				if !mills[img] {
					return
				}
			}
			out = append(out, slices.Clone(perm))
			return
		}
		for q := range n {
			if used>>q&1 != 0 || bits.OnesCount32(adj[q]) != bits.OnesCount32(adj[p]) || millsAt[q] != millsAt[p] {
				continue
			}
			ok := true
			for r := range p {
				if adj[p]>>r&1 != adj[q]>>perm[r]&1 {
					ok = false
					break
				}
			}
			if ok {
				perm[p] = q
				used |= 1 << q
				place(p + 1)
				used &^= 1 << q
			}
		}
	}
	place(0)
	return out
}

// ringBoard returns a board of rings of eight points (ring s holds points 8s..8s+7, index
// j clockwise from the top-left corner: even j corners, odd j midpoints), each ring's
// consecutive points joined and its four sides mills; spokes join the midpoints of
// consecutive rings (a mill when they cross three rings), diagonals their corners
// likewise.
func ringBoard(name string, rings int, diagonals bool) *Board {
	b := &Board{Name: name, Points: 8 * rings}
	for s := range rings {
		for j := range 8 {
			b.Lines = append(b.Lines, [2]int{8*s + j, 8*s + (j+1)%8})
		}
	}
	for s := range rings {
		for j := 0; j < 8; j += 2 {
			b.Mills = append(b.Mills, [3]int{8*s + j, 8*s + j + 1, 8*s + (j+2)%8})
		}
	}
	for _, first := range []int{1, 0} {
		if first == 0 && !diagonals {
			break
		}
		for j := first; j < 8; j += 2 {
			for s := 0; s+1 < rings; s++ {
				b.Lines = append(b.Lines, [2]int{8*s + j, 8*(s+1) + j})
			}
			if rings == 3 {
				b.Mills = append(b.Mills, [3]int{j, 8 + j, 16 + j})
			}
		}
	}
	return b
}

// nineBoard is the board of Nine Men's Morris: three squares, the cross lines joining
// their midpoints. Its 16 symmetries are listed in the package's numbering (Sym).
func nineBoard() *Board {
	b := ringBoard("nine", 3, false)
	for g := range NumSyms {
		perm := make([]int, Points)
		for p := range Points {
			s, j := p/8, p%8
			if g&1 != 0 {
				s = 2 - s
			}
			perm[p] = 8*s + squareIndex(g>>1, j)
		}
		b.Syms = append(b.Syms, perm)
	}
	return b
}

// threeBoard is the board of Three Men's Morris: a square of eight points (1–8) and its
// centre (9), joined to all eight; the rows, columns and diagonals are its 8 mills.
func threeBoard() *Board {
	b := &Board{Name: "three", Points: 9}
	for j := range 8 {
		b.Lines = append(b.Lines, [2]int{j, (j + 1) % 8}, [2]int{j, 8})
	}
	for j := 0; j < 8; j += 2 {
		b.Mills = append(b.Mills, [3]int{j, j + 1, (j + 2) % 8})
	}
	for j := range 4 {
		b.Mills = append(b.Mills, [3]int{j, 8, j + 4})
	}
	return b
}

// sevenBoard is the board of Seven Men's Morris: the two squares of Five and Six Men's
// Morris and a centre point (17) joined to the inner square's four midpoints. Its mills
// are the 8 sides of the squares and the 2 lines of three through the centre (10, 17, 14
// and 16, 17, 12): the cross the centre adds to the board. The spokes through the centre
// run five points from outer midpoint to outer midpoint, and a mill is a line of three
// points with none between, so the lines of three inside a spoke would be three a spoke
// (outer–inner–centre, inner–centre–inner, centre–inner–outer), overlapping; we take only
// the one the new cross draws, inner–centre–inner, as the midpoints' spokes of Six's
// board, two points long, were no mills either. 8 symmetries: the centre, joined to the
// inner square only, rules out swapping the squares.
func sevenBoard() *Board {
	b := ringBoard("seven", 2, false)
	b.Points = 17
	for j := 1; j < 8; j += 2 {
		b.Lines = append(b.Lines, [2]int{8 + j, 16})
	}
	b.Mills = append(b.Mills, [3]int{9, 16, 13}, [3]int{11, 16, 15})
	return b
}

// diagonalBoard is the board of Eleven and Twelve Men's Morris: Nine's board and the four
// diagonal lines through the squares' corners (1-9-17, 3-11-19, 5-13-21, 7-15-23), each a
// mill too: 20 mills.
func diagonalBoard() *Board { return ringBoard("diagonals", 3, true) }

// nineLike is a rule set with Nine Men's Morris's rules on a board of three squares.
func nineLike(name, title, board string, b *Board, stones int, fullDraw bool) *Rules {
	full := ""
	if fullDraw {
		full = "a placement that fills the board (the last, closing no mill) ends the game in a draw; "
	}
	return &Rules{Name: name, Title: title, Board: b, Stones: stones, Flying: FlyAtThree, FullBoardDraw: fullDraw,
		Text: fmt.Sprintf("%s: %s; each side starts with %d stones in hand, White first; while a side holds stones, its "+
			"turn places one on an empty point; %sthen a stone slides to an adjacent empty point, or flies to any empty "+
			"point when its side has exactly 3 stones on the board and none in hand; a placement or a move closing one "+
			"or more mills removes exactly one opponent stone, from outside the opponent's mills unless all its stones "+
			"stand in mills (none when the opponent has no stone on the board); a side with fewer than 3 stones on the "+
			"board and in hand, or without a legal move, loses; repetition is a draw", title, board, stones, full),
		idPrefix: "mill-" + name + "-v1-"}
}

const (
	nineBoardText = "Nine Men's Morris's board: three squares of 8 points (1–8 outer, 9–16 middle, 17–24 inner, " +
		"clockwise from the top-left corner), consecutive points of a square joined and the cross lines 2-10-18, " +
		"4-12-20, 6-14-22, 8-16-24; the 12 sides and 4 cross lines are the 16 mills"
	diagonalBoardText = "Nine Men's Morris's board and the diagonal lines 1-9-17, 3-11-19, 5-13-21, 7-15-23 " +
		"joining the squares' corners; the 12 sides, 4 cross lines and 4 diagonals are the 20 mills"
)

// The rule sets, by name.
var (
	// Nine is Nine Men's Morris, the package's standard game.
	Nine = &Rules{Name: "nine", Title: "Nine Men's Morris", Board: nineBoard(), Stones: 9, Flying: FlyAtThree,
		Text: RulesText, idPrefix: "mill-v2-"}
	// Three is Three Men's Morris.
	Three = &Rules{Name: "three", Title: "Three Men's Morris", Board: threeBoard(), Stones: 3, MillWins: true,
		Text: "Three Men's Morris: a square of 8 points and its centre, the centre joined to all 8 and each point of " +
			"the square to its two neighbours on it; the 3 rows, 3 columns and 2 diagonals are mills; each side " +
			"starts with 3 stones in hand, White first; while a side holds stones, its turn places one on an empty " +
			"point; then a stone slides along a line to an adjacent empty point (no flying); the side that closes " +
			"a mill, by a placement or a move, wins at once (no stone is removed); a side without a legal move " +
			"loses; repetition is a draw",
		idPrefix: "mill-three-v1-"}
	// Five and Six are Five and Six Men's Morris.
	Five = smallSquares("five", "Five Men's Morris", 5)
	Six  = smallSquares("six", "Six Men's Morris", 6)
	// Seven is Seven Men's Morris.
	Seven = &Rules{Name: "seven", Title: "Seven Men's Morris", Board: sevenBoard(), Stones: 7, Flying: FlyAtThree,
		Text: "Seven Men's Morris: two squares of 8 points (1–8 outer, 9–16 inner, clockwise from the top-left corner) " +
			"and a centre point 17; consecutive points of a square joined, each midpoint of one square to the other's, " +
			"and the centre to the inner square's four midpoints; the mills are the 8 sides and the 2 lines through the " +
			"centre (10-17-14, 12-17-16); each side starts with 7 stones in hand, White first; while a side holds stones, " +
			"its turn places one on an empty point; then a stone slides to an adjacent empty point, or flies to any empty " +
			"point when its side has exactly 3 stones on the board and none in hand; a placement or a move closing one or " +
			"two mills removes exactly one opponent stone, from outside the opponent's mills unless all its stones stand " +
			"in mills (none when the opponent has no stone on the board); a side with fewer than 3 stones on the board " +
			"and in hand, or without a legal move, loses; repetition is a draw",
		idPrefix: "mill-seven-v1-"}
	// Ten is Ten Men's Morris: Nine's board and rules, 10 stones.
	Ten = nineLike("ten", "Ten Men's Morris", nineBoardText, nineBoard(), 10, false)
	// Eleven and Twelve are Eleven and Twelve Men's Morris: Nine's board with diagonals,
	// 11 or 12 stones; with 12 a board full at the end of placement is a draw.
	Eleven = nineLike("eleven", "Eleven Men's Morris", diagonalBoardText, diagonalBoard(), 11, false)
	Twelve = nineLike("twelve", "Twelve Men's Morris", diagonalBoardText, diagonalBoard(), 12, true)
	// Lasker is Lasker Morris: Nine's board, 10 stones, merged phases (every turn places or
	// moves), flying at 3 stones on the board and in hand together.
	Lasker = laskerLike("lasker", "Lasker Morris", nineBoardText, nineBoard(), 10)
	// LaskerSix and LaskerSeven play Lasker Morris's rules on the smaller boards of Six and
	// Seven Men's Morris, with their stones: games small enough to be solved whole and
	// checked by an independent oracle, raw position by raw position.
	LaskerSix   = laskerLike("lasker-six", "Lasker Morris on Six Men's Morris's board", squaresBoardText, ringBoard("squares2", 2, false), 6)
	LaskerSeven = laskerLike("lasker-seven", "Lasker Morris on Seven Men's Morris's board", sevenBoardText, sevenBoard(), 7)
)

// laskerLike is a rule set of Lasker Morris's rules (merged phases, flying at 3 stones in
// total) on board b, described by boardText.
func laskerLike(name, title, boardText string, b *Board, stones int) *Rules {
	return &Rules{Name: name, Title: title, Board: b, Stones: stones, Flying: FlyAtThreeInTotal, Merged: true,
		Text: fmt.Sprintf("%s: %s; each side starts with %d stones in hand, White first; every turn either places a "+
			"stone from the hand on an empty point or moves a stone on the board, while either is possible: a stone "+
			"slides to an adjacent empty point, or flies to any empty point when its side has exactly 3 stones on the "+
			"board and in hand together; a placement or a move closing one or more mills removes exactly one opponent "+
			"stone, from outside the opponent's mills unless all its stones on the board stand in mills (none when "+
			"the opponent has no stone on the board); a side with fewer than 3 stones on the board and in hand, or "+
			"without a legal move, loses; repetition is a draw", title, boardText, stones),
		idPrefix: "mill-" + name + "-v1-"}
}

const (
	squaresBoardText = "two squares of 8 points (1–8 outer, 9–16 inner, clockwise from the top-left corner), " +
		"consecutive points of a square joined and each midpoint to the other square's; the 8 sides are mills"
	sevenBoardText = "two squares of 8 points (1–8 outer, 9–16 inner, clockwise from the top-left corner) and a " +
		"centre point 17; consecutive points of a square joined, each midpoint of one square to the other's, and " +
		"the centre to the inner square's four midpoints; the mills are the 8 sides and the 2 lines through the " +
		"centre (10-17-14, 12-17-16)"
)

// smallSquares is Five or Six Men's Morris: two squares joined at their midpoints.
func smallSquares(name, title string, stones int) *Rules {
	return &Rules{Name: name, Title: title, Board: ringBoard("squares2", 2, false), Stones: stones,
		Text: fmt.Sprintf("%s: two squares of 8 points (1–8 outer, 9–16 inner, clockwise from the top-left corner), "+
			"consecutive points of a square joined and each midpoint to the other square's; the 8 sides are mills; "+
			"each side starts with %d stones in hand, White first; while a side holds stones, its turn places one on an "+
			"empty point; then a stone slides to an adjacent empty point (no flying); a placement or a move closing "+
			"one or two mills removes exactly one opponent stone, from outside the opponent's mills unless all its "+
			"stones stand in mills (none when the opponent has no stone on the board); a side with fewer than 3 "+
			"stones on the board and in hand, or without a legal move, loses; repetition is a draw", title, stones),
		idPrefix: "mill-" + name + "-v1-"}
}

// RuleSets lists the rule sets of the family, Nine Men's Morris (the default) first.
func RuleSets() []*Rules {
	return []*Rules{Nine, Three, Five, Six, Seven, Ten, Eleven, Twelve, Lasker, LaskerSix, LaskerSeven}
}

// RulesNamed returns the rule set called name.
func RulesNamed(name string) (*Rules, error) {
	var names []string
	for _, r := range RuleSets() {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	return nil, fmt.Errorf("mill: no rule set %q (want one of %v)", name, names)
}
