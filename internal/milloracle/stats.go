package milloracle

import (
	"fmt"
	"iter"
)

// Stats counts the values of a sector: the positions with Mover stones for
// the side to move and Opp for the opponent.
type Stats struct {
	Mover, Opp int
	Positions  int // raw positions or symmetry classes, as the producer says
	Wins       int
	Losses     int
	Draws      int
	MaxWin     int // longest win in plies (0 when there is none)
	MaxLoss    int // longest loss in plies (0 when there is none)
}

func (s Stats) String() string {
	return fmt.Sprintf("%d-%d: %d positions, %d wins, %d losses, %d draws, max win %d, max loss %d",
		s.Mover, s.Opp, s.Positions, s.Wins, s.Losses, s.Draws, s.MaxWin, s.MaxLoss)
}

func (s *Stats) add(v Value, rem int) {
	s.Positions++
	switch v {
	case Win:
		s.Wins++
		s.MaxWin = max(s.MaxWin, rem)
	case Loss:
		s.Losses++
		s.MaxLoss = max(s.MaxLoss, rem)
	default:
		s.Draws++
	}
}

// Positions yields every raw position of the sector (mover, opp): the masks of
// the stones of the side to move and of the opponent, disjoint, with mover
// and opp stones (each 0..9). Nothing is yielded for counts outside 0..9.
func Positions(mover, opp int) iter.Seq2[uint32, uint32] {
	return func(yield func(uint32, uint32) bool) {
		if mover < 0 || mover > maxMen || opp < 0 || opp > maxMen {
			return
		}
		for _, m := range masksOf[mover] {
			for _, o := range masksOf[opp] {
				if m&o == 0 && !yield(m, o) {
					return
				}
			}
		}
	}
}

// checkSector reports whether the sector (mover, opp) is in the solved set.
func (r *Result) checkSector(mover, opp int) error {
	if mover < 3 || mover > r.maxSide || opp < 3 || opp > r.maxSide || mover+opp > r.maxStones {
		return fmt.Errorf("%w: sector %d-%d (solved: 3..%d a side, %d in all)",
			ErrPosition, mover, opp, r.maxSide, r.maxStones)
	}
	return nil
}

// RawStats counts the values of every raw position of the sector (mover, opp),
// both colours: White to move with mover white stones and Black to move with
// mover black stones.
func (r *Result) RawStats(mover, opp int) (Stats, error) {
	if err := r.checkSector(mover, opp); err != nil {
		return Stats{}, err
	}
	st := Stats{Mover: mover, Opp: opp}
	for m, o := range Positions(mover, opp) {
		st.add(r.Value(m, o, true))
		st.add(r.Value(o, m, false))
	}
	return st, nil
}

// ClassStats counts the values of the symmetry classes of the sector (mover,
// opp) under the 16 board symmetries, with the side to move taken as White:
// one count per class, for its representative (see IsCanonical). This is the
// way the published counts are given (Gasser 1996: sector 3-3 has 169,626
// classes, 140,621 wins, 28,736 losses and 269 draws).
func (r *Result) ClassStats(mover, opp int) (Stats, error) {
	return r.classStats(mover, opp, true)
}

// classStats is ClassStats with the side to move taken as White or as Black.
func (r *Result) classStats(mover, opp int, whiteToMove bool) (Stats, error) {
	if err := r.checkSector(mover, opp); err != nil {
		return Stats{}, err
	}
	st := Stats{Mover: mover, Opp: opp}
	for m, o := range Positions(mover, opp) {
		if !IsCanonical(m, o) {
			continue
		}
		if whiteToMove {
			st.add(r.Value(m, o, true))
		} else {
			st.add(r.Value(o, m, false))
		}
	}
	return st, nil
}
