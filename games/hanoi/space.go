package hanoi

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Names of the index schemes.
const (
	SchemeClasses = "classes" // compact rank of the symmetry classes (the default)
	SchemeSeed    = "seed"    // canonical state as base-k digits, with holes
	SchemePlain   = "plain"   // the state itself as base-k digits, no symmetry
)

// SchemeNames lists the index schemes, the default first.
func SchemeNames() []string { return []string{SchemeClasses, SchemeSeed, SchemePlain} }

// Params are the parameters of a table: the number of pegs and disks, and the index
// scheme ("" means SchemeClasses), which a table keeps apart from its parameters (in its
// metadata's "index"), as every game does.
type Params struct {
	Pegs  int    `json:"pegs"`
	Disks int    `json:"disks"`
	Index string `json:"-"`
}

type scheme uint8

const (
	classes scheme = iota
	seed
	plain
)

// stride is the row length of the weight tables: one entry per count of non-goal pegs
// in use (at most MaxPegs−1), padded to a power of two.
const stride = 8

// Space is the Towers of Hanoi with k pegs and n disks together with an index scheme:
// the slots, the goal, the batched expansion the builder runs, and the state-level
// methods the lookup uses. It is immutable after NewSpace and safe for concurrent use;
// each builder worker takes its own expander.
type Space struct {
	p      Params
	k, n   int
	scheme scheme
	slots  uint64
	states uint64 // reachable states (every state reaches the goal): classes or k^n
	goal   uint64 // the goal's slot
	bound  uint64 // DepthBound
	hint   uint64 // DepthHint

	// w[i*stride+u] is the weight of disk i+1 (0-based position i, i.e. i smaller
	// disks below it in significance) when u non-goal pegs are in use above it: the
	// number of completions count[i][u] for classes, k^i for seed and plain. A digit c
	// contributes c·w to the slot. Row n holds count[n][u] (classes) or k^n, the size of
	// the whole slot range.
	w [(MaxDisks + 1) * stride]uint64

	// pairs[last*stride+a0] are the pairs of codes the seed expander tries for moves of
	// disks other than the smallest, which is on code a0 (see expandCanonical).
	pairs [stride * stride]codePairs

	// tail is the classes expander's table of the smallest disks' moves (tail.go),
	// built by the first NewExpander: a lookup never needs it.
	tail     tailTable
	tailOnce sync.Once
}

// NewSpace validates p and precomputes the scheme's tables. Pegs must be 3..6 and disks
// 1..32, and the scheme's slot count must fit in a uint64 (k^n for seed and plain, the
// class count for classes); an unknown index name is an error listing the valid ones.
func NewSpace(p Params) (*Space, error) {
	if p.Index == "" {
		p.Index = SchemeClasses
	}
	var sc scheme
	switch p.Index {
	case SchemeClasses:
		sc = classes
	case SchemeSeed:
		sc = seed
	case SchemePlain:
		sc = plain
	default:
		return nil, fmt.Errorf("hanoi: unknown index scheme %q (want one of %s)", p.Index, strings.Join(SchemeNames(), ", "))
	}
	if err := checkSize(p.Pegs, p.Disks); err != nil {
		return nil, err
	}
	s := &Space{p: p, k: p.Pegs, n: p.Disks, scheme: sc, bound: depthBound(p.Pegs, p.Disks), hint: depthHint(p.Pegs, p.Disks)}
	pairTable(&s.pairs)
	k, n := uint64(s.k), s.n
	if sc == classes {
		count := make([]uint64, (n+1)*stride)
		completions(count, stride, s.k, n)
		s.slots = count[n*stride]
		if s.slots == math.MaxUint64 {
			return nil, fmt.Errorf("hanoi: the %s scheme with %d pegs holds at most %d disks (its slot count must fit in 64 bits), got %d",
				p.Index, s.k, maxDisks(s.k, sc), n)
		}
		copy(s.w[:], count[:(n+1)*stride])
		s.states = s.slots
		return s, nil
	}
	pow := uint64(1)
	for i := range n {
		for u := range stride {
			s.w[i*stride+u] = pow
		}
		hi, lo := bits.Mul64(pow, k)
		if hi != 0 {
			return nil, fmt.Errorf("hanoi: the %s scheme with %d pegs holds at most %d disks (%d^n slots must fit in 64 bits), got %d",
				p.Index, s.k, maxDisks(s.k, sc), s.k, n)
		}
		pow = lo
	}
	s.slots = pow
	for u := range stride {
		s.w[n*stride+u] = pow
	}
	if sc == seed {
		s.states = ClassCount(s.k, n)
	} else {
		s.states = s.slots
		s.goal = s.slots - 1
	}
	return s, nil
}

// maxDisks is the largest number of disks the scheme takes with pegs pegs.
func maxDisks(pegs int, sc scheme) int {
	n := 0
	for n < MaxDisks {
		next := n + 1
		if sc == classes {
			count := make([]uint64, (next+1)*stride)
			completions(count, stride, pegs, next)
			if count[next*stride] == math.MaxUint64 {
				break
			}
		} else if hi, _ := bits.Mul64(pow(pegs, n), uint64(pegs)); hi != 0 {
			break
		}
		n = next
	}
	return n
}

// pow returns k^e (e small enough not to overflow).
func pow(k, e int) uint64 {
	p := uint64(1)
	for range e {
		p *= uint64(k)
	}
	return p
}

// Params returns the parameters with the default scheme filled in.
func (s *Space) Params() Params { return s.p }

// Slots is the number of slots of the index scheme.
func (s *Space) Slots() uint64 { return s.slots }

// Goals returns the goal state's slot: every disk on peg k−1.
func (s *Space) Goals() []uint64 { return []uint64{s.goal} }

// DepthBound is an upper bound on the remoteness of every state: Σ_{m<n} (1 + FS(k, m))
// with FS the Frame–Stewart numbers (see FrameStewart). For 3 pegs it is 2^n − 1, the
// exact largest remoteness; for more pegs it is far below 2^n − 1 (4 pegs × 16 disks:
// 697), so the values of a build fit fewer bytes.
func (s *Space) DepthBound() uint64 { return s.bound }

// DepthHint is the largest remoteness a build expects (the builder sizes its values for
// it and widens them if a level goes deeper): see depthHint. With 4 pegs and 16 disks it
// is 181 where the bound is 697, so the values take one byte per class instead of two.
func (s *Space) DepthHint() uint64 { return min(s.hint, s.bound) }

// ExpectedStates is the number of slots a search reaches: every state reaches the goal,
// so it is the class count for the classes and seed schemes and k^n for plain.
func (s *Space) ExpectedStates() uint64 { return s.states }

// ListsNeighbourRuns tells the builder that the expander lists the smallest disk's moves,
// neighbours in consecutive slots, next to each other (bfs.NeighbourRuns).
func (s *Space) ListsNeighbourRuns() bool { return true }

// HasHoles reports whether the scheme leaves slots that are no state: only seed does.
func (s *Space) HasHoles() bool { return s.scheme == seed }

// MovesReversible reports that a disk can be moved back, and so a class of states lists
// every class whose expansion lists it (the symmetries map moves to moves).
func (s *Space) MovesReversible() bool { return true }

// IsHole reports whether slot is no state of the scheme: for seed, a slot whose digits
// are no canonical state; classes and plain have no holes. Slots out of range are holes.
func (s *Space) IsHole(slot uint64) bool {
	if slot >= s.slots {
		return true
	}
	if s.scheme != seed {
		return false
	}
	var code [MaxDisks]uint8
	s.decode(code[:s.n], slot)
	next := uint8(1)
	for i := s.n - 1; i >= 0; i-- {
		switch c := code[i]; {
		case c == next:
			next++
		case c > next:
			return true
		}
	}
	return false
}

// Slot parses state (in the user's own labels), canonicalises it (classes and seed) and
// returns its slot. ok is true for every valid state: each has a slot in every scheme.
func (s *Space) Slot(state string) (slot uint64, ok bool, err error) {
	slot, ok, _, err = s.SlotSpelling(state)
	return slot, ok, err
}

// SlotSpelling is Slot and Normalize with one parse. A state already spelt canonically
// (its peg digits alone) is returned as it is.
func (s *Space) SlotSpelling(state string) (slot uint64, ok bool, canon string, err error) {
	st, err := Parse(state, s.k, s.n)
	if err != nil {
		return 0, false, "", err
	}
	canon = state
	if len(state) != s.n || strings.ContainsFunc(state, func(r rune) bool { return r < '0' || r > '9' }) {
		canon = Format(st)
	}
	return s.Rank(st), true, canon, nil
}

// Neighbors returns the states one legal move away from state, in the user's own labels
// (no canonicalisation): for each source peg in increasing order, its top disk moved to
// each other peg, in increasing order, that is empty or has a larger top disk.
func (s *Space) Neighbors(state string) ([]string, error) {
	st, err := Parse(state, s.k, s.n)
	if err != nil {
		return nil, err
	}
	top := tops(st)
	var out []string
	for a := range s.k {
		i := top[a]
		if i == s.n {
			continue
		}
		for b := range s.k {
			if b == a || top[b] < i {
				continue
			}
			st[i] = uint8(b)
			out = append(out, Format(st))
			st[i] = uint8(a)
		}
	}
	return out, nil
}

// Normalize returns state in the canonical spelling of the notation (separators
// dropped), keeping the user's peg labels.
func (s *Space) Normalize(state string) (string, error) {
	st, err := Parse(state, s.k, s.n)
	if err != nil {
		return "", err
	}
	return Format(st), nil
}

// IsGoal reports whether every disk of state is on the goal peg k−1.
func (s *Space) IsGoal(state string) (bool, error) {
	st, err := Parse(state, s.k, s.n)
	if err != nil {
		return false, err
	}
	return !slices.ContainsFunc(st, func(p uint8) bool { return int(p) != s.k-1 }), nil
}
