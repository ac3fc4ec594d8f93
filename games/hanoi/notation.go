package hanoi

import (
	"errors"
	"fmt"

	"github.com/tablesmith/tablesmith/internal/notation"
)

// Limits of the game.
const (
	MinPegs  = 3  // fewest pegs
	MaxPegs  = 6  // most pegs
	MaxDisks = 32 // most disks the notation accepts (an index scheme may allow fewer)
)

// ErrState is wrapped by every error about a malformed state, so callers can tell bad
// input from other failures with errors.Is.
var ErrState = errors.New("invalid hanoi state")

// checkSize reports pegs or disks outside the game's limits.
func checkSize(pegs, disks int) error {
	if pegs < MinPegs || pegs > MaxPegs {
		return fmt.Errorf("hanoi: %d pegs: want %d to %d", pegs, MinPegs, MaxPegs)
	}
	if disks < 1 || disks > MaxDisks {
		return fmt.Errorf("hanoi: %d disks: want 1 to %d", disks, MaxDisks)
	}
	return nil
}

// isSep reports the characters allowed (and dropped) around and between peg digits.
func isSep(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ',' }

// Parse reads a state of disks disks on pegs pegs: one peg digit per disk, disk 1 (the
// smallest) first. Spaces, tabs and commas around and between the digits are allowed.
// Every error names the problem (an empty state, a stray character, the wrong number of
// digits, a peg that does not exist) and wraps ErrState; pegs or disks outside the
// game's limits are an error too. Parse never panics.
func Parse(s string, pegs, disks int) ([]uint8, error) {
	if err := checkSize(pegs, disks); err != nil {
		return nil, err
	}
	state := make([]uint8, disks)
	count := 0
	pos := 0
	for _, r := range s {
		pos++
		switch {
		case isSep(r):
		case r >= '0' && r <= '9':
			if count < disks {
				state[count] = uint8(r - '0')
			}
			count++
		default:
			return nil, fmt.Errorf("%w %s: unexpected %q at position %d (want peg digits 0-%d, one per disk, smallest disk first)",
				ErrState, notation.Quote(s), r, pos, pegs-1)
		}
	}
	if count == 0 {
		return nil, fmt.Errorf("%w %s: empty (want %d peg digits 0-%d, one per disk, smallest disk first)",
			ErrState, notation.Quote(s), disks, pegs-1)
	}
	if count != disks {
		return nil, fmt.Errorf("%w %s: got %d peg digits, want %d (one per disk)", ErrState, notation.Quote(s), count, disks)
	}
	for i, p := range state {
		if int(p) >= pegs {
			return nil, fmt.Errorf("%w %s: disk %d is on peg %d, but there are only %d pegs (0-%d)",
				ErrState, notation.Quote(s), i+1, p, pegs, pegs-1)
		}
	}
	return state, nil
}

// Format writes state in the notation: one peg digit per disk, disk 1 first.
func Format(state []uint8) string {
	b := make([]byte, len(state))
	for i, p := range state {
		if p <= 9 {
			b[i] = '0' + p
		} else {
			b[i] = '?'
		}
	}
	return string(b)
}

// Canonical writes into dst (reusing its storage; dst may be state itself) the canonical
// member of state's symmetry class for pegs pegs: the goal peg pegs−1 keeps its label and
// the other pegs are relabelled 0, 1, … in the order in which they first appear reading
// the disks from the largest down. It returns the canonical state and toUser, where
// toUser[c] is the user's label of canonical peg c (empty non-goal pegs are matched in
// increasing order), so that toUser maps canonical states and moves back to the user's
// labels. state must be a valid state for pegs (as from Parse).
func Canonical(dst, state []uint8, pegs int) (canon []uint8, toUser [MaxPegs]uint8) {
	var toCanon [MaxPegs]uint8
	for i := range toCanon {
		toCanon[i] = unassigned
	}
	goal := uint8(pegs - 1)
	toCanon[goal], toUser[goal] = goal, goal
	if cap(dst) < len(state) {
		dst = make([]uint8, len(state))
	}
	dst = dst[:len(state)]
	next := uint8(0)
	for i := len(state) - 1; i >= 0; i-- {
		p := state[i]
		c := toCanon[p]
		if c == unassigned {
			c = next
			toCanon[p], toUser[c] = c, p
			next++
		}
		dst[i] = c
	}
	for p := range goal {
		if toCanon[p] == unassigned {
			toCanon[p], toUser[next] = next, p
			next++
		}
	}
	return dst, toUser
}

// unassigned marks a peg label not yet mapped.
const unassigned = 0xFF

// IsCanonical reports whether state (for pegs pegs) is the canonical member of its class.
func IsCanonical(state []uint8, pegs int) bool {
	goal := uint8(pegs - 1)
	next := uint8(0)
	for i := len(state) - 1; i >= 0; i-- {
		switch p := state[i]; {
		case p == goal || p < next:
		case p == next:
			next++
		default:
			return false
		}
	}
	return true
}

// tops returns, for each peg of state, the index (disk−1) of its top disk, or len(state)
// for an empty peg.
func tops(state []uint8) (top [MaxPegs]int) {
	for i := range top {
		top[i] = len(state)
	}
	for i := len(state) - 1; i >= 0; i-- {
		top[state[i]] = i
	}
	return top
}

// ThreePegDistance is the remoteness of a 3-peg state (pegs 0, 1, 2; goal peg 2) by the
// closed form: reading the disks from the largest down with the goal peg as target, a
// disk d not on the target adds 2^(d−1) moves and makes the third peg the target of the
// smaller disks. It is the oracle that 3-peg tables are checked against.
func ThreePegDistance(state []uint8) uint64 {
	target := uint8(2)
	var dist uint64
	for i := len(state) - 1; i >= 0; i-- {
		if p := state[i]; p != target {
			dist += 1 << i
			target = 3 - p - target
		}
	}
	return dist
}
