package benchmarks

import (
	"sync/atomic"
	"time"

	"github.com/tablesmith/tablesmith/index"
)

// Timing helpers for `tablesmith bench eight`: the index package keeps only the schemes.

// sink keeps the timed calls of TimeRank and TimeUnrank from being optimised away
// (updated atomically: the helpers may run on several goroutines at once).
var sink atomic.Uint64

// TimeRank returns the total wall time of rounds passes of s.Rank over perms
// (rounds*len(perms) calls on the concrete type for the schemes of this package).
// It allocates nothing, so the `tablesmith bench` command can time schemes outside `go test`;
// divide by the call count for the time per rank. Safe for concurrent use.
func TimeRank(s index.PermScheme, perms [][]uint8, rounds int) time.Duration {
	// Each known scheme is wrapped in its own struct type so that the generic loop is
	// compiled for it alone (one GC shape each) and calls Rank directly, as a builder
	// holding the concrete type does; the timing then measures the scheme, not dispatch.
	switch c := s.(type) {
	case *index.Lex:
		return timeRank(struct{ *index.Lex }{c}, perms, rounds)
	case *index.LexHalf:
		return timeRank(struct{ *index.LexHalf }{c}, perms, rounds)
	case *index.MyrvoldRuskey:
		return timeRank(struct{ *index.MyrvoldRuskey }{c}, perms, rounds)
	case *index.Branch767359:
		return timeRank(struct{ *index.Branch767359 }{c}, perms, rounds)
	}
	return timeRank(s, perms, rounds)
}

func timeRank[S interface{ Rank([]uint8) uint64 }](s S, perms [][]uint8, rounds int) time.Duration {
	var acc uint64
	start := time.Now()
	for range rounds {
		for _, p := range perms {
			acc += s.Rank(p)
		}
	}
	d := time.Since(start)
	sink.Add(acc)
	return d
}

// TimeUnrank returns the total wall time of rounds passes of s.Unrank over slots
// (rounds*len(slots) calls, on the concrete type as TimeRank), unranking into one scratch
// buffer of length s.N(): that buffer is its only allocation, made before the
// clock starts. Holes count like other slots. Safe for concurrent use.
func TimeUnrank(s index.PermScheme, slots []uint64, rounds int) time.Duration {
	p := make([]uint8, s.N())
	switch c := s.(type) {
	case *index.Lex:
		return timeUnrank(struct{ *index.Lex }{c}, slots, rounds, p)
	case *index.LexHalf:
		return timeUnrank(struct{ *index.LexHalf }{c}, slots, rounds, p)
	case *index.MyrvoldRuskey:
		return timeUnrank(struct{ *index.MyrvoldRuskey }{c}, slots, rounds, p)
	case *index.Branch767359:
		return timeUnrank(struct{ *index.Branch767359 }{c}, slots, rounds, p)
	}
	return timeUnrank(s, slots, rounds, p)
}

func timeUnrank[S interface{ Unrank(uint64, []uint8) bool }](s S, slots []uint64, rounds int, p []uint8) time.Duration {
	var acc uint64
	start := time.Now()
	for range rounds {
		for _, slot := range slots {
			if s.Unrank(slot, p) {
				acc += uint64(p[0])
			}
		}
	}
	d := time.Since(start)
	sink.Add(acc)
	return d
}
