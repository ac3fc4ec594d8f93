package index

// MyrvoldRuskey is the linear-time ranking of Myrvold & Ruskey, "Ranking and
// unranking permutations in linear time" (IPL 79, 2001), functions rank1/unrank1 in
// their non-recursive form. Its order is not lexicographic, but rank and unrank need
// only swaps and (for unrank) digits of a mixed-radix number. Size is n!, no holes.
type MyrvoldRuskey struct {
	n    int
	size uint64
	// w[i] = n!/i!, the weight of the digit that rank1 takes at length i; recipW[i]
	// is its reciprocal for divFast (used when n! < 2^32).
	w, recipW [maxN + 1]uint64
}

// NewMyrvoldRuskey returns the Myrvold–Ruskey scheme for permutations of length n,
// 1 <= n <= 20; it panics for any other n.
func NewMyrvoldRuskey(n int) *MyrvoldRuskey {
	checkN("NewMyrvoldRuskey", n, 1, maxN)
	m := &MyrvoldRuskey{n: n, size: factorials[n]}
	for i := 1; i <= n; i++ {
		m.w[i] = factorials[n] / factorials[i]
		m.recipW[i] = ^uint64(0)/m.w[i] + 1 // wraps to 0 for w = 1, never used
	}
	return m
}

// Name returns "mr".
func (m *MyrvoldRuskey) Name() string { return "mr" }

// N returns the permutation length.
func (m *MyrvoldRuskey) N() int { return m.n }

// Size returns n!.
func (m *MyrvoldRuskey) Size() uint64 { return m.size }

// HasHoles returns false: every slot below n! is a permutation.
func (m *MyrvoldRuskey) HasHoles() bool { return false }

// Rank returns the Myrvold–Ruskey rank of p (len n); p is not modified.
//
// rank1(i) = s + i*rank1(i-1) with s = π[i-1], after which the value i-1 is swapped
// into position i-1 (updating the inverse π⁻¹). Unrolled, the digit s taken at
// length i has weight n!/i!. For n <= 16, π and π⁻¹ live as nibbles of two words.
func (m *MyrvoldRuskey) Rank(p []uint8) uint64 {
	n := m.n
	p = p[:n]
	if n > 16 {
		return m.rankWide(p)
	}
	var pi, inv uint64
	for i, v := range p {
		pi |= uint64(v) << (4 * i & 63)
		inv |= uint64(i) << (4 * uint64(v) & 63)
	}
	var r uint64
	for i := n - 1; i > 0; i-- {
		s := pi >> (4 * i & 63) & 15
		j := inv >> (4 * i & 63) & 15
		// π[j] = s and π⁻¹[s] = j, where both entries held i: XOR in s^i and j^i.
		// Positions >= i are never read again, so only these halves of the two
		// swaps are kept.
		pi ^= (s ^ uint64(i)) << (4 * j & 63)
		inv ^= (j ^ uint64(i)) << (4 * s & 63)
		r += s * m.w[i+1]
	}
	return r
}

// rankWide is Rank for 16 < n <= 20, with π and π⁻¹ in stack arrays.
func (m *MyrvoldRuskey) rankWide(p []uint8) uint64 {
	var pi, inv [32]uint8
	for i, v := range p {
		pi[i&31] = v
		inv[v&31] = uint8(i)
	}
	var r uint64
	for i := len(p) - 1; i > 0; i-- {
		s := pi[i&31]
		j := inv[i&31]
		pi[j&31] = s
		inv[s&31] = j
		r += uint64(s) * m.w[i+1]
	}
	return r
}

// Unrank fills p (len n) with the permutation of Myrvold–Ruskey rank slot; it
// returns false when slot >= n!.
//
// unrank1 starts from the identity and, for i = n, n-1, …, 2, swaps π[i-1] with
// π[d_i], where d_i = (slot div n!/i!) mod i is the digit rank1 took at length i.
// The quotients slot div n!/i! are independent of each other, so they pipeline;
// for n <= 12 each is a multiplication by a precomputed reciprocal.
func (m *MyrvoldRuskey) Unrank(slot uint64, p []uint8) bool {
	if slot >= m.size {
		return false
	}
	n := m.n
	p = p[:n]
	if n > 16 {
		m.unrankWide(slot, p)
		return true
	}
	pi := uint64(identNibbles)
	q := slot // slot div n!/n!
	for i := n; i > 1; i-- {
		var qNext uint64 // slot div n!/(i-1)!
		if n <= 12 {
			qNext = divFast(slot, m.recipW[i-1])
		} else {
			qNext = slot / m.w[i-1]
		}
		d := q - qNext*uint64(i)
		q = qNext
		a, b := 4*uint64(i-1)&63, 4*d&63
		x := (pi>>a ^ pi>>b) & 15
		pi ^= x<<a | x<<b
	}
	for i := range p {
		p[i] = uint8(pi>>(4*i&63)) & 15
	}
	return true
}

// unrankWide is Unrank for 16 < n <= 20, with π in a stack array.
func (m *MyrvoldRuskey) unrankWide(slot uint64, p []uint8) {
	n := len(p)
	var pi [32]uint8
	for i := range pi {
		pi[i] = uint8(i)
	}
	q := slot
	for i := n; i > 1; i-- {
		qNext := slot / m.w[i-1]
		d := q - qNext*uint64(i)
		q = qNext
		pi[(i-1)&31], pi[d&31] = pi[d&31], pi[(i-1)&31]
	}
	copy(p, pi[:n])
}
