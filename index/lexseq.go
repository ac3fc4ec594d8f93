package index

// LexSeq unranks a series of lexicographic ranks of permutations of 0..n-1, reusing the
// part a rank shares with the one before: ranks r and r' with r div 6! = r' div 6! have
// the same first n-6 entries, so only the last six are computed again. A breadth-first
// search that unranks a frontier in increasing order (a bitset drained word by word)
// mostly gets ranks that close together. For 12 < n ≤ 16 (ranks beyond 2^32) a prefix is
// computed with divisions, and a rank that shares the cached one costs none; for n > 16
// and n ≤ 7 it unranks every rank in full. A LexSeq is not safe for concurrent use.
type LexSeq struct {
	n      int
	q      uint64 // the rank of the cached prefix: r div 6!, or ^0 for none
	list   uint64 // the values left after the prefix, as a nibble list
	sum    uint64 // the prefix's digit sum
	prefix [16]uint8
}

// seqTail is the number of entries LexSeq recomputes when the prefix is cached.
const seqTail = 6

// tailPerms[t] is the permutation of 0..5 at lexicographic rank t, as the nibble shifts
// (4·entry) of its six entries, byte j for entry j; tailSums[t] is its Lehmer digit
// sum. A cached prefix leaves six values, so the tail of a rank is read off the table
// through the prefix's nibble list instead of four divisions and six dependent nibble
// takes.
var tailPerms, tailSums = func() (perms [720]uint64, sums [720]uint8) {
	var p [seqTail]uint8
	for t := range perms {
		sums[t] = uint8(lexUnrankSmall(uint64(t), p[:], identNibbles))
		for j, v := range p {
			perms[t] |= uint64(4*v) << (8 * j)
		}
	}
	return perms, sums
}()

// NewLexSeq returns a LexSeq for permutations of length n, 1 <= n <= 20 (it panics for
// any other n).
func NewLexSeq(n int) *LexSeq {
	checkN("NewLexSeq", n, 1, maxN)
	return &LexSeq{n: n, q: ^uint64(0)}
}

// Unrank fills p (len n) with the permutation of lexicographic rank r < n! and returns
// the sum of its Lehmer digits (its low bit is the parity), as Lex.Unrank and
// LexHalf.UnrankPair compute them.
func (s *LexSeq) Unrank(r uint64, p []uint8) (digitSum uint64) {
	digitSum, from := s.UnrankFrom(r, p)
	copy(p[:from], s.prefix[:from]) // p need not be the slice the call before filled
	return digitSum
}

// UnrankFrom is Unrank for a caller that passes the same p every time and changes at
// most its last six entries between calls: it writes only p[from:], the entries that may
// differ from the permutation the call before left there. A caller that keeps
// something derived from p (the board of a position vector) updates only that part.
func (s *LexSeq) UnrankFrom(r uint64, p []uint8) (digitSum uint64, from int) {
	n := s.n
	if n > 16 || n <= seqTail+1 {
		return lexUnrank(r, p[:n]), 0
	}
	k := n - seqTail // the prefix's length
	from = k
	var q uint64
	switch {
	case n <= 12:
		q = divFast(r, recipFact[seqTail])
	case r-s.q*factorials[seqTail] < factorials[seqTail]:
		// Ranks beyond 2^32 (13 to 16 entries): no division while r shares the cached
		// prefix (wrapping arithmetic: none is cached when s.q is ^0).
		q = s.q
	default:
		q = r / factorials[seqTail]
	}
	if q != s.q && n > 12 {
		list := uint64(identNibbles)
		var prev, sum uint64
		for i := range k {
			f := n - 1 - i
			qi := r / factorials[f]
			d := qi - prev*uint64(f+1)
			prev = qi
			sum += d
			s.prefix[i], list = nibbleTake(list, d)
		}
		s.q, s.list, s.sum = q, list, sum
		copy(p[:k], s.prefix[:k])
		from = 0
	} else if q != s.q {
		// The prefix of r is that of q·6!: the first k positions of lexUnrankSmall.
		list := uint64(identNibbles)
		var prev, sum uint64
		for i := range k {
			f := (n - 1 - i) & 15
			qi := divFast(r, recipFact[f])
			d := qi - prev*uint64(f+1)
			prev = qi
			sum += d
			s.prefix[i], list = nibbleTake(list, d)
		}
		s.q, s.list, s.sum = q, list, sum
		copy(p[:k], s.prefix[:k])
		from = 0
	}
	t := r - q*factorials[seqTail]
	shifts, list := tailPerms[t%720], s.list
	tail := p[k:n:n]
	tail = tail[:seqTail]
	for j := range tail {
		tail[j] = uint8(list>>(shifts>>(8*j)&63)) & 15
	}
	return s.sum + uint64(tailSums[t%720]), from
}
