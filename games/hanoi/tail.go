package hanoi

import "slices"

// The classes expander splits a state into its tail, the few smallest disks, and the
// larger disks above it. The tail's moves, its decoding and the pegs it leaves free for
// the larger disks depend only on the tail's rank below the larger disks and on how
// many non-goal pegs those use, so they are looked up in a table built once per space
// (tailTable) instead of being worked out with data-dependent branches for every state.
// Consecutive frontier slots mostly share their larger disks, which are decoded
// incrementally as before; a larger disk moves only between pegs the tail leaves free,
// and those moves are worked out once per run of slots that share the larger disks.
// A move that relabels pegs (a larger disk onto a peg none of the disks above it uses,
// or off the first peg of its code) goes through expander.move: about one state in four
// to six at 4 pegs, but one to several times a state at 5 and 6 pegs, where the table
// saves less.

// tailDisks is how many of the smallest disks the table covers: as many as keep a tail's
// rank in a byte (k^L ≤ 256).
func tailDisks(k, n int) int {
	l := 3
	switch k {
	case 3:
		l = 5
	case 4:
		l = 4
	}
	return min(l, n)
}

// tailRows is the row stride per count of pegs in use above the tail: a tail's rank is
// below k^L ≤ 256.
const tailRows = 256

// tailTable holds, for every count u of non-goal pegs the larger disks use and every rank
// r of a tail below them (row u·tailRows + r):
//   - nbr[row·width : row·width+count[row]]: the ranks of the tail after each of its
//     legal moves, canonical, ascending (neighbours in consecutive slots stay together
//     for the builder), without the tail itself; the rest of the row pads it;
//   - free[row]: the codes a larger disk may move between: those of the goal and the
//     larger disks' pegs that hold no tail disk, and one empty peg if there is one;
//   - codes[row]: the tail's codes, three bits a disk, the smallest disk lowest.
//
// The pairs of codes a < b are numbered 0..width−1 (pair); pick[m][:maxPairs] lists the
// numbers of the pairs within the set of codes m, padded with width, which numbers no pair.
type tailTable struct {
	disks    int
	width    int
	maxPairs int
	nbr      []uint8
	count    []uint8
	free     []uint8
	codes    []uint16
	pair     [maxCodePairs][2]uint8
	pick     [1 << MaxPegs][maxCodePairs]uint8
}

// maxCodePairs is one more than the number of pairs of MaxPegs codes: the padding.
const maxCodePairs = MaxPegs*(MaxPegs-1)/2 + 1

// newTailTable builds s's tail table; s.w must hold the classes weights.
func newTailTable(s *Space) tailTable {
	k := s.k
	t := tailTable{disks: tailDisks(k, s.n), width: k * (k - 1) / 2, maxPairs: (k - 1) * (k - 2) / 2}
	rows := k * tailRows
	t.nbr = make([]uint8, rows*t.width)
	t.count = make([]uint8, rows)
	t.free = make([]uint8, rows)
	t.codes = make([]uint16, rows)
	L := t.disks
	var code, moved [MaxDisks]uint8
	for u := range uint8(k) {
		for r := range s.w[L*stride+int(u)] {
			row := int(u)*tailRows + int(r)
			rem, used := r, u
			for j := L - 1; j >= 0; j-- {
				code[j], used, rem = s.classCode(j, used, rem)
				t.codes[row] |= uint16(code[j]) << (3 * j)
			}
			last := min(used+1, uint8(k-1))
			top := [stride]int{L, L, L, L, L, L, L, L} // L: no tail disk
			for j := L - 1; j >= 0; j-- {
				top[code[j]] = j
			}
			nbr := make([]uint8, 0, maxCodePairs)
			for a := range last + 1 {
				for b := a + 1; b <= last; b++ {
					i, to := top[a], b
					if top[b] < i {
						i, to = top[b], a
					}
					if i == L {
						continue // no tail disk on either peg
					}
					copy(moved[:L], code[:L])
					moved[i] = to
					if x := s.tailRank(moved[:L], u); x != uint64(r) && !slices.Contains(nbr, uint8(x)) {
						nbr = append(nbr, uint8(x))
					}
				}
			}
			slices.Sort(nbr)
			copy(t.nbr[row*t.width:], nbr)
			t.count[row] = uint8(len(nbr))
			for c := range u + 1 {
				if top[c] == L {
					t.free[row] |= 1 << c
				}
			}
			if used+1 < uint8(k) {
				t.free[row] |= 1 << (used + 1)
			}
		}
	}
	var p uint8
	for a := range uint8(k) {
		for b := a + 1; b < uint8(k); b++ {
			t.pair[p] = [2]uint8{a, b}
			p++
		}
	}
	for m := range 1 << k {
		pick := t.pick[m][:0]
		for p, ab := range t.pair[:t.width] {
			if m>>ab[0]&1 == 1 && m>>ab[1]&1 == 1 && len(pick) < t.maxPairs {
				pick = append(pick, uint8(p))
			}
		}
		for len(pick) < len(t.pick[m]) {
			pick = append(pick, uint8(t.width))
		}
	}
	return t
}

// tailRank returns the rank of the tail code (smallest disk first) below larger disks
// using u non-goal pegs, after relabelling its pegs beyond those in order of first
// appearance from its largest disk down (code is changed).
func (s *Space) tailRank(code []uint8, u uint8) uint64 {
	m := [stride]uint8{0, 1, 2, 3, 4, 5, 6, 7}
	for x := int(u) + 1; x < stride; x++ {
		m[x] = unassigned
	}
	used := u
	var r uint64
	for j := len(code) - 1; j >= 0; j-- {
		c := m[code[j]]
		w := s.w[j*stride+int(used)]
		if c == unassigned {
			used++
			c = used
			m[code[j]] = c
		}
		r += uint64(c) * w
	}
	return r
}

// decodeAbove makes the arrays describe the larger disks of slot (positions ≥ L, and the
// entries at L−1 for the whole prefix), reusing those it shares with the slot before.
func (e *expander) decodeAbove(slot uint64) {
	s := e.s
	L := e.s.tail.disks
	i := L - 1
	for i < s.n-1 && slot-e.pre[i] >= s.w[(i+1)*stride+int(e.used[i])] {
		i++
	}
	rem := slot - e.pre[i]
	used := e.used[i]
	tops := e.above[i]
	for ; i >= L; i-- {
		e.pre[i] = slot - rem
		e.used[i] = used
		e.above[i] = tops
		var code uint8
		code, used, rem = s.classCode(i, used, rem)
		e.code[i] = code
		tops = withTop(tops, code, i)
	}
	e.pre[L-1] = slot - rem
	e.used[L-1] = used
	e.above[L-1] = tops
	e.block = s.w[L*stride+int(used)]
	// The move of a larger disk between each pair of pegs, as far as it does not depend
	// on the tail: it does not when neither peg is new below the moving disk.
	for p, ab := range s.tail.pair[:s.tail.width] {
		m := &e.larger[p]
		*m = largerMove{}
		from, to := ab[0], ab[1]
		tf, tt := tops>>(8*from)&0xFF, tops>>(8*to)&0xFF
		if tt < tf {
			from, to, tf = to, from, tt
		}
		if tf == 0xFF {
			continue // both pegs free of larger disks
		}
		// The disk at position at moves; pegs used above it: inUse.
		at, inUse := int(tf), e.used[tf]
		m.ok = 1
		if from <= inUse && to <= inUse {
			w := s.w[at*stride+int(inUse)]
			m.delta = uint64(to)*w - uint64(from)*w
		} else {
			m.relabel, m.i, m.from, m.to = true, uint8(at), from, to
		}
	}
}

// largerMove is the move of a larger disk between a pair of pegs below the current
// larger disks: it is a move if ok, and then leads delta slots away, or for relabel
// needs the whole move (expander.move of the disk at i from code from to code to).
type largerMove struct {
	delta       uint64
	ok          uint8
	relabel     bool
	i, from, to uint8
}

// expandClasses expands slots of the classes scheme: the tail's moves from the table,
// then each move of a larger disk between two pegs the tail leaves free. Every
// candidate is written, and counted only if it is a move, so that no branch depends on
// the state but the decoding of the larger disks and the relabelling moves.
func (e *expander) expandClasses(dst, src []uint64) []uint64 {
	s := e.s
	t := &s.tail
	L1 := t.disks - 1
	width, maxPairs := t.width, t.maxPairs
	n := len(dst)
	dst = slices.Grow(dst, len(src)*(width+maxPairs))
	out := dst[:cap(dst)]
	for _, slot := range src {
		if slot-e.pre[L1] >= e.block {
			e.decodeAbove(slot)
		}
		base := e.pre[L1]
		row := int(e.used[L1])*tailRows + int(slot-base)
		o := out[n:][:width]
		for j, r := range t.nbr[row*width:][:width] {
			o[j] = base + uint64(r)
		}
		n += int(t.count[row])
		for _, p := range t.pick[t.free[row]][:maxPairs] {
			m := &e.larger[p]
			next := slot + m.delta
			if m.relabel {
				codes := t.codes[row]
				for j := range L1 + 1 {
					e.code[j] = uint8(codes>>(3*j)) & 7
				}
				next = e.move(slot, int(m.i), m.from, m.to)
			}
			out[n] = next
			n += int(m.ok)
		}
	}
	return out[:n]
}
