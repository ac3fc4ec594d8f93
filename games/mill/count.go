package mill

// ClassCount returns the number of symmetry classes of the positions of Nine Men's Morris
// with w stones for the side to move and b for the opponent (any w, b ≥ 0 with w+b ≤ 24;
// 0 otherwise), by Burnside's lemma: the average over the 16 symmetries of the number of
// positions each fixes. A symmetry fixes a position when each of its cycles on the points
// is all own, all opponent or all empty, so it fixes the coefficient of x^w·y^b in
// Π_cycles (1 + x^len + y^len) positions.
func ClassCount(w, b int) uint64 { return nine.classCount(w, b) }

// ClassCount is the package's ClassCount on the rule set's board.
func (r *Rules) ClassCount(w, b int) uint64 { return r.compiled().classCount(w, b) }

func (v *variant) classCount(w, b int) uint64 {
	if w < 0 || b < 0 || w+b > v.points {
		return 0
	}
	// Remembered: the count takes tens of microseconds, and every sector's space and
	// TierSize ask for it.
	if c := v.classCounts[w][b].Load(); c != 0 {
		return c - 1
	}
	c := v.countClasses(w, b)
	v.classCounts[w][b].Store(c + 1)
	return c
}

func (v *variant) countClasses(w, b int) uint64 {
	var sum uint64
	for g := range Sym(v.nsyms) {
		// poly[i][j]: placements of i own and j opponent stones on the cycles so far.
		var poly [Points + 1][Points + 1]uint64
		poly[0][0] = 1
		for _, l := range v.cycleLengths(g) {
			for i := v.points; i >= 0; i-- {
				for j := v.points - i; j >= 0; j-- {
					if i >= l {
						poly[i][j] += poly[i-l][j]
					}
					if j >= l {
						poly[i][j] += poly[i][j-l]
					}
				}
			}
		}
		sum += poly[w][b]
	}
	return sum / uint64(v.nsyms)
}

// cycleLengths returns the lengths of the cycles of g on the board's points.
func (v *variant) cycleLengths(g Sym) []int {
	var seen [Points]bool
	var out []int
	for p := range v.points {
		l := 0
		for q := p; !seen[q]; q = int(v.symPerm[g][q]) {
			seen[q] = true
			l++
		}
		if l > 0 {
			out = append(out, l)
		}
	}
	return out
}

// TotalClassCount returns the number of symmetry classes of Nine Men's Morris's moving
// phase: the sum of ClassCount(w, b) over the 49 sectors 3 ≤ w, b ≤ 9.
func TotalClassCount() uint64 {
	var sum uint64
	for w := MinStones; w <= MaxStones; w++ {
		for b := MinStones; b <= MaxStones; b++ {
			sum += ClassCount(w, b)
		}
	}
	return sum
}
