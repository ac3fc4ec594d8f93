package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// benchInputs is the number of precomputed random inputs a benchmark cycles through
// (a power of two, so that the index is a mask), enough to defeat constant folding
// and branch-history learning while staying in L1/L2.
const benchInputs = 1 << 12

// benchPerms returns benchInputs random permutations of length n, flattened.
func benchPerms(n int) []uint8 {
	rng := rand.New(rand.NewPCG(9, 10))
	flat := make([]uint8, 0, benchInputs*n)
	for range benchInputs {
		flat = append(flat, randPerm(rng, n)...)
	}
	return flat
}

// benchSlots returns benchInputs random non-hole slots of s.
func benchSlots(s PermScheme) []uint64 {
	rng := rand.New(rand.NewPCG(11, 12))
	slots := make([]uint64, benchInputs)
	p := make([]uint8, s.N())
	for i := range slots {
		for {
			slots[i] = rng.Uint64N(s.Size())
			if s.Unrank(slots[i], p) {
				break
			}
		}
	}
	return slots
}

var benchSink uint64

// The loops below are written out per concrete type, so that Rank and Unrank are
// direct (inlinable) calls as in a builder, not calls through an interface or a
// generic dictionary.

func BenchmarkRank(b *testing.B) {
	for _, n := range []int{9, 12, 16, 20} {
		b.Run(fmt.Sprintf("lex/n=%d", n), func(b *testing.B) {
			s, flat, acc, i := NewLex(n), benchPerms(n), uint64(0), 0
			for b.Loop() {
				acc += s.Rank(flat[i*n : i*n+n])
				i = (i + 1) & (benchInputs - 1)
			}
			benchSink += acc
		})
	}
	const n = 9
	flat := benchPerms(n)
	b.Run("lex-half/n=9", func(b *testing.B) {
		s, acc, i := NewLexHalf(n), uint64(0), 0
		for b.Loop() {
			acc += s.Rank(flat[i*n : i*n+n])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
	b.Run("mr/n=9", func(b *testing.B) {
		s, acc, i := NewMyrvoldRuskey(n), uint64(0), 0
		for b.Loop() {
			acc += s.Rank(flat[i*n : i*n+n])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
	b.Run("branch767359/n=9", func(b *testing.B) {
		s, acc, i := NewBranch767359(), uint64(0), 0
		for b.Loop() {
			acc += s.Rank(flat[i*n : i*n+n])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
}

func BenchmarkUnrank(b *testing.B) {
	for _, n := range []int{9, 12, 16, 20} {
		b.Run(fmt.Sprintf("lex/n=%d", n), func(b *testing.B) {
			s := NewLex(n)
			slots, p, acc, i := benchSlots(s), make([]uint8, n), uint64(0), 0
			for b.Loop() {
				s.Unrank(slots[i], p)
				acc += uint64(p[0])
				i = (i + 1) & (benchInputs - 1)
			}
			benchSink += acc
		})
	}
	p := make([]uint8, 9)
	b.Run("lex-half/n=9", func(b *testing.B) {
		s := NewLexHalf(9)
		slots, acc, i := benchSlots(s), uint64(0), 0
		for b.Loop() {
			s.Unrank(slots[i], p)
			acc += uint64(p[0])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
	b.Run("mr/n=9", func(b *testing.B) {
		s := NewMyrvoldRuskey(9)
		slots, acc, i := benchSlots(s), uint64(0), 0
		for b.Loop() {
			s.Unrank(slots[i], p)
			acc += uint64(p[0])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
	b.Run("branch767359/n=9", func(b *testing.B) {
		s := NewBranch767359()
		slots, acc, i := benchSlots(s), uint64(0), 0
		for b.Loop() {
			s.Unrank(slots[i], p)
			acc += uint64(p[0])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
}

// BenchmarkUnrankPair times LexHalf.UnrankPair, the builders' unrank for lex-half.
func BenchmarkUnrankPair(b *testing.B) {
	s := NewLexHalf(9)
	slots := benchSlots(s)
	p := make([]uint8, 9)
	acc := 0
	i := 0
	for b.Loop() {
		acc += s.UnrankPair(slots[i], p)
		i = (i + 1) & (benchInputs - 1)
	}
	benchSink += uint64(acc)
}

func BenchmarkZobrist(b *testing.B) {
	z := NewZobrist(9, 9, DefaultZobristSeed)
	flat := benchPerms(9)
	b.Run("Hash", func(b *testing.B) {
		var acc uint64
		i := 0
		for b.Loop() {
			acc += z.Hash(flat[i*9 : i*9+9])
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += acc
	})
	b.Run("Move", func(b *testing.B) {
		// A random walk of the blank, precomputed as (from, to, tile) triples.
		type move struct {
			from, to int
			tile     uint8
		}
		rng := rand.New(rand.NewPCG(13, 14))
		board := identity(9)
		blank := 0
		moves := make([]move, benchInputs)
		for i := range moves {
			nb := blankMoves(blank, 3, 3)
			from := nb[rng.IntN(len(nb))]
			moves[i] = move{from, blank, board[from]}
			board[blank], board[from] = board[from], 0
			blank = from
		}
		h := z.Hash(identity(9))
		i := 0
		for b.Loop() {
			m := moves[i]
			h = z.Move(h, m.from, m.to, m.tile)
			i = (i + 1) & (benchInputs - 1)
		}
		benchSink += h
	})
}

// BenchmarkPartialCursorSeek seeks a cursor of the 15-puzzle's 8-tile group (16, 8)
// through sorted slots at mean gaps a frontier has: 4 (a dense middle level), 64 and
// 4096 (a sparse one).
func BenchmarkPartialCursorSeek(b *testing.B) {
	p := NewPartialPerm(16, 8)
	for _, gap := range []uint64{4, 64, 4096} {
		b.Run(fmt.Sprintf("gap%d", gap), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, gap))
			slots := make([]uint64, 1<<16)
			s := rng.Uint64N(p.Size() / 2)
			for i := range slots {
				s += 1 + rng.Uint64N(2*gap-1)
				slots[i] = s % p.Size()
			}
			slices.Sort(slots)
			c := p.NewCursor()
			b.ResetTimer()
			for i := range b.N {
				c.Seek(slots[i&(len(slots)-1)])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/seek")
		})
	}
}

// BenchmarkLexSeq times LexSeq over the ranks of a 3×4 frontier bitset drained in
// order (every third rank of 12!, as a mid-search level holds about one slot in three
// to fifteen): the cached prefix and the tail table, against unranking each in full.
func BenchmarkLexSeq(b *testing.B) {
	const n, step = 12, 3
	p := make([]uint8, n)
	b.Run("seq", func(b *testing.B) {
		s := NewLexSeq(n)
		var acc, r uint64
		for b.Loop() {
			sum, from := s.UnrankFrom(r, p)
			acc += sum + uint64(from) + uint64(p[n-1])
			r = (r + step) % factorials[n]
		}
		benchSink += acc
	})
	b.Run("full", func(b *testing.B) {
		var acc, r uint64
		for b.Loop() {
			acc += lexUnrank(r, p) + uint64(p[n-1])
			r = (r + step) % factorials[n]
		}
		benchSink += acc
	})
}
