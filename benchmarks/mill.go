package benchmarks

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/tablesmith/tablesmith/games/mill"
)

// MillRow is one scheme's line of the Nine Men's Morris comparison: how a scheme keys the
// symmetry classes of one sector. NaN marks what a scheme does not do.
type MillRow struct {
	Scheme  string
	CanonNs float64 // one canonicalisation of a random position of the sector
	RankNs  float64 // one Rank (the class rank only)
	// Keys is the number of slots (the class rank) or of distinct canonical keys found by
	// the enumeration.
	Keys         uint64
	KeysPerClass float64
	// VisitedBytes is the size of the visited structure of the enumeration: a bitset of
	// the slots, or the hash set of keys (open addressing, 8 bytes a cell, load ≤ 1/2).
	VisitedBytes  uint64
	BytesPerClass float64
	// Enumerate is the time to canonicalise every position of the sector (Positions of
	// them) and insert its key (set its slot's bit), one thread.
	Enumerate time.Duration
	Positions uint64
	// The additive signature's modulus n = 2^ModBits (0 for the other schemes), the
	// classes that share a canonical signature with another (classes − distinct keys) and
	// the number expected for keys that are each the smallest of 16 uniform values mod n.
	ModBits            int
	Collisions         uint64
	ExpectedCollisions float64
}

// MillOptions tune the comparison.
type MillOptions struct {
	W, B         int    // the sector (0, 0: 5-4)
	Rounds       int    // passes over 4096 random positions per timing, the fastest counted (0: 200)
	AdditiveBits []int  // the additive signature's moduli 2^k, one row each (nil: 64 and 32)
	Seed         uint64 // the additive signature's weights (0: mill.DefaultSigSeed)
}

// millKeyer is a scheme's key of a position: a slot, a packed canonical position or a
// canonical signature.
type millKeyer interface{ key(own, opp uint32) uint64 }

type (
	rankKey      struct{ s *mill.Sector }
	sectorKey    struct{ s *mill.Sector } // Sector.Canonical, packed
	exactKey     struct{}
	additiveKey  struct{ a *mill.AdditiveSig }
	canonicalKey struct{} // mill.Canonical, packed
)

func (k rankKey) key(own, opp uint32) uint64 { return k.s.Rank(own, opp) }

func (k sectorKey) key(own, opp uint32) uint64 {
	o, p := k.s.Canonical(own, opp)
	return uint64(o)<<mill.Points | uint64(p)
}

func (exactKey) key(own, opp uint32) uint64 { return uint64(mill.CanonicalExactSig(own, opp)) }

func (k additiveKey) key(own, opp uint32) uint64 { return k.a.Canonical(own, opp) }

func (canonicalKey) key(own, opp uint32) uint64 {
	o, p, _ := mill.Canonical(own, opp)
	return uint64(o)<<mill.Points | uint64(p)
}

// MillSchemes compares the ways to key the classes of a Nine Men's Morris sector: the
// class rank (mill.Sector), the exact and the additive signature, and mill.Canonical (the
// 16 images without tables) for reference. Each canonicalises 4096 random positions of
// the sector (a random class's canonical position under a random symmetry), and every
// position of the sector into its visited structure: the rank's
// bitset of slots, a hash set of keys for the others. It fails when a scheme other than
// the additive signature does not find exactly ClassCount classes.
func MillSchemes(ctx context.Context, opt MillOptions) ([]MillRow, error) {
	if opt.W == 0 && opt.B == 0 {
		opt.W, opt.B = 5, 4
	}
	if opt.Rounds <= 0 {
		opt.Rounds = 200
	}
	if opt.AdditiveBits == nil {
		opt.AdditiveBits = []int{64, 32}
	}
	if opt.Seed == 0 {
		opt.Seed = mill.DefaultSigSeed
	}
	s, err := mill.NewSector(opt.W, opt.B)
	if err != nil {
		return nil, err
	}
	for _, k := range opt.AdditiveBits {
		if k < 1 || k > 64 {
			return nil, fmt.Errorf("benchmarks: additive signature mod 2^%d: want 1 ≤ k ≤ 64", k)
		}
	}
	// Random positions: a random class's canonical position under a random symmetry.
	r := rand.New(rand.NewPCG(uint64(opt.W), uint64(opt.B)))
	own, opp := make([]uint32, 4096), make([]uint32, 4096)
	for i := range own {
		o, p := s.Unrank(r.Uint64N(s.Slots()))
		g := mill.Sym(r.IntN(mill.NumSyms))
		own[i], opp[i] = g.Apply(o), g.Apply(p)
	}
	classes := s.Slots()
	var rows []MillRow
	add := func(row MillRow, e enumeration, err error) error {
		if err != nil {
			return err
		}
		keys, bytes := e.keys, e.bytes
		row.Positions = e.positions
		row.Keys, row.KeysPerClass = keys, float64(keys)/float64(classes)
		row.VisitedBytes, row.BytesPerClass = bytes, float64(bytes)/float64(classes)
		if row.ModBits == 0 && keys != classes {
			return fmt.Errorf("benchmarks: %s found %d classes in sector %d-%d, want %d", row.Scheme, keys, opt.W, opt.B, classes)
		}
		rows = append(rows, row)
		return nil
	}

	row := MillRow{Scheme: "class rank", CanonNs: keyNs(sectorKey{s}, own, opp, opt.Rounds),
		RankNs: keyNs(rankKey{s}, own, opp, opt.Rounds)}
	start := time.Now()
	e, err := enumerateSlots(ctx, s, opt.W, opt.B)
	row.Enumerate = time.Since(start)
	if err := add(row, e, err); err != nil {
		return nil, err
	}
	row, e, err = setRow(ctx, "exact signature", exactKey{}, own, opp, opt)
	if err := add(row, e, err); err != nil {
		return nil, err
	}
	for _, k := range opt.AdditiveBits {
		row, e, err = setRow(ctx, "additive signature", additiveKey{mill.NewAdditiveSig(opt.Seed, k)}, own, opp, opt)
		row.ModBits, row.Collisions = k, classes-e.keys
		// Two classes (16 images each, most) collide with probability Σ_v P(min = v)² ≈ 256/(31·n).
		row.ExpectedCollisions = float64(classes) * float64(classes-1) / 2 * 256 / 31 / math.Exp2(float64(k))
		if err := add(row, e, err); err != nil {
			return nil, err
		}
	}
	row, e, err = setRow(ctx, "mill.Canonical", canonicalKey{}, own, opp, opt)
	if err := add(row, e, err); err != nil {
		return nil, err
	}
	return rows, nil
}

// setRow times the scheme k on the random positions and enumerates the sector's classes
// into a hash set of its keys, returning the distinct keys and the set's bytes.
func setRow[K millKeyer](ctx context.Context, name string, k K, own, opp []uint32, opt MillOptions) (MillRow, enumeration, error) {
	row := MillRow{Scheme: name, CanonNs: keyNs(k, own, opp, opt.Rounds), RankNs: math.NaN(), ExpectedCollisions: math.NaN()}
	start := time.Now()
	e, err := enumerateKeys(ctx, k, opt.W, opt.B)
	row.Enumerate = time.Since(start)
	return row, e, err
}

// keyNs returns the time of one k.key: rounds passes over the positions, the fastest
// pass counted (the machine may be shared).
func keyNs[K millKeyer](k K, own, opp []uint32, rounds int) float64 {
	var acc uint64
	for i := range own { // warm the tables
		acc += k.key(own[i], opp[i])
	}
	best := time.Duration(math.MaxInt64)
	for range rounds {
		start := time.Now()
		for i := range own {
			acc += k.key(own[i], opp[i])
		}
		best = min(best, time.Since(start))
	}
	sink.Add(acc)
	return float64(best.Nanoseconds()) / float64(len(own))
}

// checkEvery is how many positions an enumeration handles between looks at ctx.
const checkEvery = 1 << 22

// enumeration is what an enumeration of a sector found: the positions, the distinct keys
// (set bits) and the bytes of the visited structure.
type enumeration struct{ positions, keys, bytes uint64 }

// enumerateSlots ranks every position of sector (w, b) into a bitset of the slots.
func enumerateSlots(ctx context.Context, s *mill.Sector, w, b int) (enumeration, error) {
	visited := make([]uint64, (s.Slots()+63)/64)
	var e enumeration
	for own, opp := range mill.Positions(w, b) {
		if e.positions++; e.positions%checkEvery == 0 && ctx.Err() != nil {
			return e, ctx.Err()
		}
		slot := s.Rank(own, opp)
		visited[slot/64] |= 1 << (slot % 64)
	}
	for _, x := range visited {
		e.keys += uint64(bits.OnesCount64(x))
	}
	e.bytes = 8 * uint64(len(visited))
	return e, nil
}

// enumerateKeys inserts the key of every position of sector (w, b) into a hash set sized
// for the sector's classes.
func enumerateKeys[K millKeyer](ctx context.Context, k K, w, b int) (enumeration, error) {
	seen := newKeySet(int(mill.ClassCount(w, b)))
	var e enumeration
	for own, opp := range mill.Positions(w, b) {
		if e.positions++; e.positions%checkEvery == 0 && ctx.Err() != nil {
			return e, ctx.Err()
		}
		seen.add(k.key(own, opp))
	}
	e.keys, e.bytes = uint64(seen.Len()), 8*uint64(len(seen.slots))
	return e, nil
}
