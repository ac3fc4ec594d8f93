package hanoi

import "github.com/tablesmith/tablesmith/internal/cacheline"

// NewExpander returns an expander for one builder worker (it owns scratch buffers and
// must not be called concurrently). It appends to dst the slots adjacent to every slot in
// src and returns dst. For classes and seed these are the classes one legal move away
// from the slot's class: each top disk onto an empty peg or a larger top disk, the move
// canonicalised and ranked (all empty non-goal pegs being alike, only one of them is
// tried); seed holes have no neighbours. For plain they are the states one move away.
//
// Per state the work is O(n) with table look-ups and no allocation beyond growing dst,
// and less in practice: a slot is decoded only below the larger disks it shares with
// the slot expanded before (consecutive slots of a BFS frontier mostly differ in small
// disks), and a move whose source and target pegs both hold a larger disk leaves the
// labelling alone and costs O(1). For classes, the default, the smallest disks' moves
// come from a table and the larger disks' moves are worked out once per run of slots
// that share those disks (tail.go).
func (s *Space) NewExpander() func(dst, src []uint64) []uint64 {
	// The scratch space is written for every state: on cache lines of its own, so that
	// two workers' expanders never share one (internal/cacheline).
	e := cacheline.New[expander]()
	e.s, e.lim = s, uint8(s.k-1)
	// Start from slot 0: every digit 0, all prefixes 0. For classes and seed that is
	// every disk on the goal peg (code 0), for plain every disk on peg 0.
	for i := range s.n - 1 {
		e.above[i] = withTop(noTops, 0, i+1)
	}
	e.above[s.n-1] = noTops
	switch s.scheme {
	case plain:
		return e.expandPlain
	case classes:
		s.tailOnce.Do(func() { s.tail = newTailTable(s) })
		e.decodeAbove(0)
		return e.expandClasses
	}
	return e.expandCanonical
}

// Tops are packed in a uint64: byte c is the position (disk−1) of the top disk of the peg
// with digit c, 0xFF for an empty peg, which compares above every position.
const noTops = ^uint64(0)

// withTop returns tops with the top of digit c at position i.
func withTop(tops uint64, c uint8, i int) uint64 {
	return tops&^(0xFF<<(8*c)) | uint64(i)<<(8*c)
}

// expander is one worker's scratch space: the digits of the state being expanded
// (codes for classes and seed, pegs for plain) and, for each position i, the slot's
// contribution of the larger disks (pre), the number of non-goal pegs in use among them
// (used; meaningless for plain, whose weights do not depend on it) and their tops
// (above).
//
// Invariant between calls: the arrays describe one valid state, except that after a
// seed hole only positions ≥ lo are valid, and that for classes only the larger disks
// above the tail are kept (positions ≥ L, and L−1 for the whole prefix; tail.go). A slot x has the same digits above position
// i ≥ lo exactly when x − pre[i] < w[i+1][used[i]], the size of that prefix's block.
type expander struct {
	s     *Space
	lim   uint8 // the largest digit, k−1
	lo    int
	code  [MaxDisks]uint8
	used  [MaxDisks]uint8
	pre   [MaxDisks]uint64
	above [MaxDisks]uint64
	// classes (tail.go): the size of the tail's block below the larger disks, and the
	// moves of a larger disk between each pair of pegs; the entries from the number of
	// pairs on stay zero, no move, for the padding of tailTable.pick.
	block  uint64
	larger [maxCodePairs]largerMove
}

// decode makes the arrays describe slot of the seed or plain scheme (base-k digits; the
// classes scheme decodes in decodeAbove), reusing the digits it shares with the slot
// decoded before, and returns the number of non-goal pegs in use and the tops. ok is
// false for a seed hole.
func (e *expander) decode(slot uint64) (used uint8, tops uint64, ok bool) {
	s := e.s
	holes := s.scheme == seed
	i := e.lo
	for i < s.n-1 && slot-e.pre[i] >= s.w[(i+1)*stride+int(e.used[i])] {
		i++
	}
	rem := slot - e.pre[i]
	used = e.used[i]
	tops = e.above[i]
	// Base k: the digits of rem by division by a constant, no mispredicted branch.
	s.decode(e.code[:i+1], rem)
	pre := e.pre[i]
	for ; i >= 0; i-- {
		e.pre[i] = pre
		e.used[i] = used
		e.above[i] = tops
		code := e.code[i]
		if code > used {
			if holes && code > used+1 { // no canonical state
				e.lo = i
				return 0, 0, false
			}
			used++
		}
		pre += uint64(code) * s.w[i*stride]
		tops = withTop(tops, code, i)
	}
	e.lo = 0
	return used, tops, true
}

// expandCanonical expands slots of the seed scheme.
//
// The moves are enumerated without data-dependent branches, which mispredicted on about
// every state (the relative order of the tops is as good as random). Two facts make that
// possible. Every pair of pegs with a disk allows exactly one move, the smaller top onto
// the other peg, so a state's moves are its pairs of codes, chosen by the codes alone.
// And the smallest disk, a top wherever it is, has weight 1 below every prefix: moving
// it to code c gives slot pre[0]+c, so its moves reach the run of consecutive slots
// pre[0] .. pre[0]+min(last, used[0]+1), which is emitted first and in order (the
// builder claims neighbours in one visited word together).
func (e *expander) expandCanonical(dst, src []uint64) []uint64 {
	s := e.s
	for _, slot := range src {
		used, tops, ok := e.decode(slot)
		if !ok {
			continue
		}
		last := used // the codes to try: the goal, the pegs in use and one empty peg
		if last < e.lim {
			last++
		}
		// The smallest disk: every code up to last, an empty peg past the larger
		// disks' pegs being one code (u+1) however many of them there are.
		base := e.pre[0]
		run := min(uint64(last), uint64(e.used[0])+1)
		for c := range run + 1 {
			if base+c != slot {
				dst = append(dst, base+c)
			}
		}
		// Every other move is between two codes other than the smallest disk's.
		a0 := uint8(slot - base)
		pairs := &s.pairs[int(last)*stride+int(a0)]
		for _, p := range pairs.ab[:pairs.n] {
			a, b := p[0], p[1]
			ta, tb := tops>>(8*a)&0xFF, tops>>(8*b)&0xFF
			i := min(ta, tb)
			if i == 0xFF {
				continue // two empty pegs: no move
			}
			// The smaller top moves: from b to a when tb < ta.
			swap := uint8((tb - ta) >> 63)
			x := (a ^ b) & -swap
			dst = append(dst, e.move(slot, int(i), a^x, b^x))
		}
	}
	return dst
}

// codePairs lists the pairs (a, b), a < b, of the codes 0..last other than one code.
type codePairs struct {
	n  uint8
	ab [(MaxPegs - 1) * (MaxPegs - 2) / 2][2]uint8
}

// pairTable fills t[last*stride+a0] with the pairs of the codes 0..last other than a0.
func pairTable(t *[stride * stride]codePairs) {
	for last := range uint8(MaxPegs) {
		for a0 := range last + 1 {
			p := &t[int(last)*stride+int(a0)]
			for a := range last + 1 {
				for b := a + 1; b <= last; b++ {
					if a != a0 && b != a0 {
						p.ab[p.n] = [2]uint8{a, b}
						p.n++
					}
				}
			}
		}
	}
}

// move returns the slot of the canonical state with the disk at position i moved from
// code a to code b. The larger disks keep their codes; the smaller ones are relabelled
// in order of first appearance unless a and b are both in use among the larger disks.
func (e *expander) move(slot uint64, i int, a, b uint8) uint64 {
	s := e.s
	u := e.used[i]
	if a <= u && b <= u {
		w := s.w[i*stride+int(u)]
		return slot + uint64(b)*w - uint64(a)*w
	}
	m := [stride]uint8{0, 1, 2, 3, 4, 5, 6, 7}
	for x := int(u) + 1; x < s.k; x++ {
		m[x] = unassigned
	}
	r := e.pre[i]
	used := u
	x := b
	for j := i; ; {
		c := m[x]
		w := s.w[j*stride+int(used)]
		if c == unassigned {
			used++
			c = used
			m[x] = c
		}
		r += uint64(c) * w
		if j == 0 {
			return r
		}
		j--
		x = e.code[j]
	}
}

// expandPlain expands slots of the plain scheme: every legal move, no symmetry.
func (e *expander) expandPlain(dst, src []uint64) []uint64 {
	s := e.s
	for _, slot := range src {
		_, tops, _ := e.decode(slot)
		for a := range e.lim + 1 {
			i := tops >> (8 * a) & 0xFF
			if i == 0xFF {
				continue
			}
			w := s.w[i*stride]
			for b := range e.lim + 1 {
				if tops>>(8*b)&0xFF > i {
					dst = append(dst, slot+uint64(b)*w-uint64(a)*w)
				}
			}
		}
	}
	return dst
}
