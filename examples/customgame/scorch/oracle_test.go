package scorch_test

import (
	"strings"
	"sync"
)

// The brute-force solver the tables are checked against. It shares nothing with package
// scorch but the rules: positions are plain strings, moves are found by string surgery,
// and values follow from the definition over all 9,216 positions at once, depth after
// depth, with no tiers, ranks or un-moves:
//   - a position without a move is lost at 0;
//   - a position is won at odd d when some move leads to a position lost at d−1 (the
//     first such d: the winner hurries);
//   - a position is lost at even d > 0 when every move leads to a won position, the
//     slowest won at d−1 (the loser delays);
//   - what two depths in a row leave undecided is drawn (play goes on for ever).

// bruteValue is a position's value: remoteness −1 for a draw.
type bruteValue struct {
	win, draw  bool
	remoteness int
}

func (v bruteValue) outcome() string {
	switch {
	case v.draw:
		return "draw"
	case v.win:
		return "win"
	}
	return "loss"
}

// brutePositions lists every position: X on one cell, O on another, each other cell free
// or scorched.
func brutePositions() []string {
	var out []string
	for x := range 9 {
		for o := range 9 {
			if o == x {
				continue
			}
			for mask := range 1 << 7 {
				b := []byte(strings.Repeat(".", 9))
				b[x], b[o] = 'X', 'O'
				bit := 0
				for c := range 9 {
					if c != x && c != o {
						if mask&(1<<bit) != 0 {
							b[c] = '#'
						}
						bit++
					}
				}
				out = append(out, string(b))
			}
		}
	}
	return out
}

// bruteMoves lists the positions one move away, as the next side to move sees them.
func bruteMoves(s string) []string {
	x := strings.IndexByte(s, 'X')
	o := strings.IndexByte(s, 'O')
	var out []string
	for to := range 9 {
		dr, dc := to/3-x/3, to%3-x%3
		if dr*dr+dc*dc != 1 || s[to] != '.' {
			continue
		}
		for _, left := range []byte{'.', '#'} {
			b := []byte(s)
			b[x], b[o], b[to] = left, 'X', 'O'
			out = append(out, string(b))
		}
	}
	return out
}

// bruteForce values every position, once.
var bruteForce = sync.OnceValue(func() map[string]bruteValue {
	all := brutePositions()
	moves := map[string][]string{}
	for _, s := range all {
		moves[s] = bruteMoves(s)
	}
	rem := map[string]int{} // decided positions
	pending := all
	for d, quiet := 0, 0; quiet < 2; d++ {
		var decided, left []string
		for _, s := range pending {
			ok := false
			switch {
			case d == 0:
				ok = len(moves[s]) == 0
			case d%2 == 1:
				for _, c := range moves[s] {
					if r, known := rem[c]; known && r == d-1 {
						ok = true
					}
				}
			default:
				slowest := -1
				ok = true
				for _, c := range moves[s] {
					r, known := rem[c]
					if !known || r%2 == 0 {
						ok = false
						break
					}
					slowest = max(slowest, r)
				}
				ok = ok && slowest == d-1
			}
			if ok {
				decided = append(decided, s)
			} else {
				left = append(left, s)
			}
		}
		for _, s := range decided {
			rem[s] = d
		}
		pending = left
		if len(decided) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	out := make(map[string]bruteValue, len(all))
	for _, s := range all {
		if r, ok := rem[s]; ok {
			out[s] = bruteValue{win: r%2 == 1, remoteness: r}
		} else {
			out[s] = bruteValue{draw: true, remoteness: -1}
		}
	}
	return out
})
