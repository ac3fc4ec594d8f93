package hanoi

// Digits. The plain scheme's digits are the peg labels. The canonical schemes (classes and
// seed) use codes: 0 for the goal peg and j+1 for canonical non-goal peg j. A canonical
// state read from the largest disk down is then a string whose codes never exceed one
// more than the largest code before them.

// pegOf turns a code into the canonical state's peg label.
func (s *Space) pegOf(code uint8) uint8 {
	if code == 0 {
		return uint8(s.k - 1)
	}
	return code - 1
}

// Rank returns the slot of state, a valid state (as from Parse) in any peg labels: for
// classes and seed it is first canonicalised, for plain it is ranked as it is.
func (s *Space) Rank(state []uint8) uint64 {
	n := s.n
	state = state[:n]
	if s.scheme == plain {
		var slot uint64
		for i := n - 1; i >= 0; i-- {
			slot += uint64(state[i]) * s.w[i*stride]
		}
		return slot
	}
	// Codes in order of first appearance from the largest disk down; the goal is code 0.
	m := [stride]uint8{unassigned, unassigned, unassigned, unassigned, unassigned, unassigned, unassigned, unassigned}
	m[s.k-1] = 0
	used := uint8(0)
	var slot uint64
	for i := n - 1; i >= 0; i-- {
		p := state[i] & (stride - 1)
		c := m[p]
		u := used
		if c == unassigned {
			used++
			c = used
			m[p] = c
		}
		slot += uint64(c) * s.w[i*stride+int(u)]
	}
	return slot
}

// Unrank writes into state (at least n long) the state of slot: for classes and seed the
// canonical member of its class (goal peg k−1, non-goal pegs 0, 1, … in order of first
// appearance from the largest disk down), for plain the state itself. It returns false,
// leaving state unspecified, for a hole or a slot out of range.
func (s *Space) Unrank(slot uint64, state []uint8) bool {
	if slot >= s.slots {
		return false
	}
	n := s.n
	state = state[:n]
	switch s.scheme {
	case plain:
		s.decode(state, slot)
		return true
	case seed:
		s.decode(state, slot)
		next := uint8(1)
		for i := n - 1; i >= 0; i-- {
			c := state[i]
			if c > next {
				return false
			}
			if c == next {
				next++
			}
			state[i] = s.pegOf(c)
		}
		return true
	}
	rem := slot
	used := uint8(0)
	for i := n - 1; i >= 0; i-- {
		var code uint8
		code, used, rem = s.classCode(i, used, rem)
		state[i] = s.pegOf(code)
	}
	return true
}

// classCode takes disk i's code off rem in the classes scheme, used being the pegs in use
// by the larger disks: the code is at most used+1 and the block of code used+1 is
// count[i][used+1] long, so it counts the whole blocks of length w[i][used] below rem.
// It returns the code, the pegs in use with disk i, and what is left of rem.
func (s *Space) classCode(i int, used uint8, rem uint64) (code, usedWith uint8, rest uint64) {
	c := s.w[i*stride+int(used)]
	for code <= used && rem >= c {
		rem -= c
		code++
	}
	if code > used {
		used++
	}
	return code, used, rem
}

// decode writes the n base-k digits of x into dst, least significant (disk 1) first.
// The divisor is a constant in each case so that the compiler turns the divisions into
// multiplications.
func (s *Space) decode(dst []uint8, x uint64) {
	switch s.k {
	case 3:
		for i := range dst {
			dst[i] = uint8(x % 3)
			x /= 3
		}
	case 4:
		for i := range dst {
			dst[i] = uint8(x & 3)
			x >>= 2
		}
	case 5:
		for i := range dst {
			dst[i] = uint8(x % 5)
			x /= 5
		}
	default:
		for i := range dst {
			dst[i] = uint8(x % 6)
			x /= 6
		}
	}
}
