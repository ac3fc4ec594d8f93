package games

import (
	"slices"
	"testing"
)

func TestCodeGather(t *testing.T) {
	var g CodeGather
	g.SetTiers([]Tier{7, 3}, [][]uint16{{10, 11, 12}, {20}})
	tests := []struct {
		name     string
		children []TierPosition
		want     []uint16
		bad      int
	}{
		{"none", nil, []uint16{}, -1},
		{"both tiers and a game over", []TierPosition{{7, 2}, {3, 0}, {GameOver, 99}, {7, 0}}, []uint16{12, 20, 2, 10}, -1},
		{"a slot past the end", []TierPosition{{7, 1}, {3, 1}}, nil, 1},
		{"a tier not set", []TierPosition{{7, 1}, {7, 2}, {5, 0}}, nil, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, bad := g.Gather(make([]uint16, 5), tc.children)
			if bad != tc.bad {
				t.Fatalf("bad child %d, want %d", bad, tc.bad)
			}
			if bad < 0 && !slices.Equal(got, tc.want) {
				t.Fatalf("codes %v, want %v", got, tc.want)
			}
			if bad >= 0 && len(got) != 0 {
				t.Fatalf("codes %v after a bad child, want none", got)
			}
		})
	}
	// SetTiers again replaces the tiers: the old ones are gone.
	g.SetTiers([]Tier{3}, [][]uint16{{30}})
	if got, bad := g.Gather(nil, []TierPosition{{3, 0}}); bad != -1 || !slices.Equal(got, []uint16{30}) {
		t.Fatalf("after SetTiers: %v, %d", got, bad)
	}
	if _, bad := g.Gather(nil, []TierPosition{{7, 0}}); bad != 0 {
		t.Fatalf("a tier of the SetTiers before still read: bad %d", bad)
	}
}
