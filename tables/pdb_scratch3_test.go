package tables

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tablesmith/builder"
	"tablesmith/games/slide"
)

func TestScratchSpeed(t *testing.T) {
	spec := os.Getenv("PDBTILES")
	if spec == "" {
		t.Skip()
	}
	var tiles []uint8
	for _, f := range strings.Split(spec, ",") {
		v, _ := strconv.Atoi(f)
		tiles = append(tiles, uint8(v))
	}
	geo, _ := slide.NewGeometry(4, 4)
	sp := newPDBSpace(geo, slide.BlankFirst, tiles)
	w, _ := strconv.Atoi(os.Getenv("W"))
	start := time.Now()
	res, _ := builder.ZeroOneBFS(context.Background(), sp, builder.Options{Workers: w})
	el := time.Since(start)
	fmt.Printf("workers %d: %v, %.1fM slots/s, levels %d max %d counts %v\n", w, el, float64(res.Reached)/el.Seconds()/1e6, len(res.SlotCounts), res.MaxValue(), res.Counts)
}
