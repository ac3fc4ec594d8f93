package morrisoracle

import (
	"fmt"
	"math/bits"
	"sort"
)

// The second solving mode: retrograde analysis over whole sectors, for games too large for
// the map of Solve. A sector is every raw position with the given stones on the board and
// in hand; its positions are numbered densely (the mover's stones by the combinatorial
// number system over the board's points, the opponent's over the points left), and the
// sectors the moves of the roots' sectors reach are added until the set is closed. Each
// position counts its successors; the positions without a legal move (losses in 0) and
// those with a move that ends the game (wins in 1) start a queue, and each position taken
// from it, in the order of its remoteness, walks its predecessors, found by un-moves: a
// predecessor of a loss in r is a win in r+1 (the first loss reached is the nearest), and
// one whose last successor is counted off by a win in r is a loss in r+1 (the wins come in
// order, so the last is the farthest). The positions never decided are draws.

// Sector names a sector from the side to move's view: W and B stones on the board of the
// side to move and of the opponent, OwnHand and OppHand in hand.
type Sector struct{ W, B, OwnHand, OppHand int }

// Dense holds the value of every raw position of a set of sectors closed under moves.
type Dense struct {
	g       *game
	sectors []denseSector
	dim     int     // the bound of each of a Sector's numbers, for slot
	slot    []int32 // the index in sectors of each Sector (by slotOf), -1 for none
	vals    []uint16
}

type denseSector struct {
	s      Sector
	offset int // the index of its first position
	opps   int // how many ways the opponent's stones stand on the points left
	size   int
}

// binom[n][k] is n choose k.
var binom = func() (b [33][33]int) {
	for n := range b {
		b[n][0] = 1
		for k := 1; k <= n; k++ {
			b[n][k] = b[n-1][k-1] + b[n-1][k]
		}
	}
	return b
}()

// The values in vals: 0 undecided (a draw at the end), a win in r 2r+1, a loss in r 2r+2.
func winIn(r int) uint16  { return uint16(2*r + 1) }
func lossIn(r int) uint16 { return uint16(2*r + 2) }

func decode(v uint16) Value {
	switch {
	case v == 0:
		return Value{}
	case v%2 == 1:
		return Value{Win, int(v-1) / 2}
	default:
		return Value{Loss, int(v-2) / 2}
	}
}

// SolveDense returns the value of every raw position of the sectors of roots and of every
// sector their moves reach, by retrograde analysis (see above).
func SolveDense(r Rules, roots []Sector) *Dense {
	g := newGame(r)
	d := &Dense{g: g, dim: r.Board.Points + 1}
	for _, s := range roots {
		d.dim = max(d.dim, s.OwnHand+1, s.OppHand+1)
	}
	d.slot = make([]int32, d.dim*d.dim*d.dim*d.dim)
	for i := range d.slot {
		d.slot[i] = -1
	}
	total := 0
	add := func(s Sector) {
		if d.slot[d.slotOf(s)] >= 0 {
			return
		}
		n := r.Board.Points
		ds := denseSector{s: s, offset: total, opps: binom[n-s.W][s.B]}
		ds.size = binom[n][s.W] * ds.opps
		total += ds.size
		d.slot[d.slotOf(s)] = int32(len(d.sectors))
		d.sectors = append(d.sectors, ds)
	}
	for _, s := range roots {
		add(s)
	}
	// The sectors the moves lead to: a placement or a move, each with a capture where
	// the mover has a mill's 3 stones and the opponent keeps 3 stones in all.
	for i := 0; i < len(d.sectors); i++ {
		s := d.sectors[i].s
		after := func(w, hand int) {
			add(Sector{W: s.B, B: w, OwnHand: s.OppHand, OppHand: hand})
			if !r.MillWins && w >= 3 && s.B > 0 && s.B-1+s.OppHand >= 3 {
				add(Sector{W: s.B - 1, B: w, OwnHand: s.OppHand, OppHand: hand})
			}
		}
		if s.OwnHand > 0 && s.W+s.B < r.Board.Points {
			after(s.W+1, s.OwnHand-1)
		}
		if (s.OwnHand == 0 || r.Merged) && s.W > 0 {
			after(s.W, s.OwnHand)
		}
	}
	if total >= 1<<32 {
		panic(fmt.Sprintf("morrisoracle: %d positions are too many", total))
	}
	d.vals = make([]uint16, total)
	left := make([]uint16, total) // successors not yet known to be wins
	var losses, wins []uint32
	var next []Pos
	for i := range d.sectors {
		ds := &d.sectors[i]
		for j := range ds.size {
			gi := ds.offset + j
			var ends int
			next, ends = g.appendSuccessors(next[:0], d.pos(ds, j))
			switch {
			case ends > 0:
				d.vals[gi] = winIn(1)
				wins = append(wins, uint32(gi))
			case len(next) == 0:
				d.vals[gi] = lossIn(0)
				losses = append(losses, uint32(gi))
			case len(next) > 1<<16-1:
				panic("morrisoracle: too many moves")
			default:
				left[gi] = uint16(len(next))
			}
		}
	}
	queue := append(losses, wins...)
	losses, wins = nil, nil
	for k := 0; k < len(queue); k++ {
		gi := int(queue[k])
		v := d.vals[gi]
		d.predecessors(d.posAt(gi), func(qi int) {
			if d.vals[qi] != 0 {
				return
			}
			if v%2 == 0 { // a loss in r: the predecessor wins in r+1
				d.vals[qi] = v + 1 // 2r+2 → 2(r+1)+1
				queue = append(queue, uint32(qi))
				return
			}
			if left[qi]--; left[qi] == 0 { // every successor a win, the farthest in r
				d.vals[qi] = v + 3 // 2r+1 → 2(r+1)+2
				queue = append(queue, uint32(qi))
			}
		})
	}
	return d
}

func (d *Dense) slotOf(s Sector) int {
	return ((s.W*d.dim+s.B)*d.dim+s.OwnHand)*d.dim + s.OppHand
}

// Len returns how many positions d holds.
func (d *Dense) Len() int { return len(d.vals) }

// Sectors returns the sectors of d.
func (d *Dense) Sectors() []Sector {
	out := make([]Sector, len(d.sectors))
	for i, ds := range d.sectors {
		out[i] = ds.s
	}
	return out
}

// Value returns the value of p, and false where p's sector is not in d.
func (d *Dense) Value(p Pos) (Value, bool) {
	gi, ok := d.index(p)
	if !ok {
		return Value{}, false
	}
	return decode(d.vals[gi]), true
}

// index returns the number of p among d's positions.
func (d *Dense) index(p Pos) (int, bool) {
	s := Sector{W: bits.OnesCount32(p.Own), B: bits.OnesCount32(p.Opp), OwnHand: p.OwnHand, OppHand: p.OppHand}
	if s.OwnHand < 0 || s.OppHand < 0 || s.OwnHand >= d.dim || s.OppHand >= d.dim {
		return 0, false
	}
	i := d.slot[d.slotOf(s)]
	if i < 0 {
		return 0, false
	}
	ds := &d.sectors[i]
	return ds.offset + rankSet(p.Own)*ds.opps + rankSet(extract(p.Opp, d.g.all&^p.Own)), true
}

// posAt returns the position numbered gi.
func (d *Dense) posAt(gi int) Pos {
	i := sort.Search(len(d.sectors), func(i int) bool { return d.sectors[i].offset > gi }) - 1
	return d.pos(&d.sectors[i], gi-d.sectors[i].offset)
}

// pos returns the position numbered j within ds.
func (d *Dense) pos(ds *denseSector, j int) Pos {
	n := d.g.r.Board.Points
	own := unrankSet(j/ds.opps, ds.s.W, n)
	opp := deposit(unrankSet(j%ds.opps, ds.s.B, n-ds.s.W), d.g.all&^own)
	return Pos{Own: own, Opp: opp, OwnHand: ds.s.OwnHand, OppHand: ds.s.OppHand}
}

// rankSet numbers a set of points among the sets of as many: the sum over its points
// p_1 < p_2 < … of C(p_i, i).
func rankSet(x uint32) int {
	r := 0
	for i := 1; x != 0; i++ {
		r += binom[bits.TrailingZeros32(x)][i]
		x &= x - 1
	}
	return r
}

// unrankSet returns the set of k of the points 0..n-1 numbered r (rankSet's inverse).
func unrankSet(r, k, n int) uint32 {
	var x uint32
	c := n
	for i := k; i >= 1; i-- {
		c--
		for binom[c][i] > r {
			c--
		}
		x |= 1 << c
		r -= binom[c][i]
	}
	return x
}

// extract gathers the bits of x at mask's points into the low bits (deposit's inverse).
func extract(x, mask uint32) uint32 {
	var out uint32
	for i := 0; mask != 0; mask &= mask - 1 {
		if x&(mask&-mask) != 0 {
			out |= 1 << i
		}
		i++
	}
	return out
}

// predecessors calls yield with the number of every position of d one of whose moves
// leads to p, each once: the opponent's stone on t was placed or came from f (slid along
// a line, or flown), and, where it closes a mill, took one of the side to move's stones
// from a point now empty (one the rules let it take), or found none to take.
func (d *Dense) predecessors(p Pos, yield func(qi int)) {
	g := d.g
	empty := g.all &^ (p.Own | p.Opp)
	canTake := bits.OnesCount32(p.Own)+p.OwnHand >= 3 // else the capture ended the game
	emit := func(q Pos) {
		if qi, ok := d.index(q); ok {
			yield(qi)
		}
	}
	for t := range g.r.Board.Points {
		if p.Opp>>t&1 == 0 {
			continue
		}
		closes := g.closes(p.Opp, t)
		if closes && g.r.MillWins {
			continue // that move ended the game
		}
		from := func(qB uint32, hand int) {
			q := Pos{Own: qB, Opp: p.Own, OwnHand: hand, OppHand: p.OwnHand}
			if !closes || p.Own == 0 {
				emit(q)
			}
			if !closes || !canTake {
				return
			}
			for c := empty &^ qB; c != 0; c &= c - 1 {
				x := c & -c
				if q.Opp = p.Own | x; g.removable(q.Opp)&x != 0 {
					emit(q)
				}
			}
		}
		before := p.Opp &^ (1 << t)
		from(before, p.OppHand+1) // placed
		if !g.r.Merged && p.OppHand > 0 {
			continue // with a stone in hand it had to place
		}
		count := bits.OnesCount32(before) + 1
		if g.r.FlyByTotal {
			count += p.OppHand
		}
		to := g.adj[t] & empty
		if g.r.Fly && count == 3 {
			to = empty
		}
		for c := to; c != 0; c &= c - 1 {
			from(before|c&-c, p.OppHand)
		}
	}
}
