package build

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/tables"
)

// TestMillSector33Published: sector 3-3 against the published figures (Gasser 1996 for the
// longest loss; the rest agrees with two independent databases).
func TestMillSector33Published(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := MillPair(context.Background(), dir, Pair{3, 3}, MillOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	m, err := tables.ReadSectorManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := m.Sector("3-3")
	if !ok {
		t.Fatal("no sector 3-3 in the manifest")
	}
	if s.Classes != 169626 || s.Wins != 140621 || s.Losses != 28736 || s.Draws != 269 || s.MaxWin != 25 || s.MaxLoss != 26 {
		t.Fatalf("sector 3-3: %+v\nwant 169,626 classes: 140,621 wins, 28,736 losses, 269 draws, longest win 25, loss 26", s)
	}
}
