// Command shiftab times two-bit searches of a sliding-tile puzzle with and without the
// horizontal moves as shifts (twobit.Options.NoShifts), alternated, and prints each
// run's wall and CPU time: CPU time is the steadier figure on a machine shared with
// other work.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/slide"
)

func main() {
	rows := flag.Int("rows", 2, "board rows")
	cols := flag.Int("cols", 6, "board columns")
	mode := flag.String("mode", "half", "3bit, half or lean")
	rounds := flag.Int("rounds", 2, "alternations")
	workers := flag.Int("workers", 2, "workers")
	flag.Parse()
	sp, err := slide.NewSpace(slide.Params{Rows: *rows, Cols: *cols, Index: "lex-half"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for range *rounds {
		for _, shifts := range []bool{false, true} {
			opt := twobit.Options{Workers: *workers, NoShifts: !shifts, Half: *mode == "half", Lean: *mode == "lean"}
			t0, c0 := time.Now(), cpu()
			res, err := twobit.Search(context.Background(), sp, opt)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			wall, c := time.Since(t0), cpu()-c0
			fmt.Printf("%d×%d %s shifts=%-5v wall %6.2fs cpu %6.2fs (%.1f ns a state of CPU), %d levels\n",
				*rows, *cols, *mode, shifts, wall.Seconds(), c.Seconds(), float64(c.Nanoseconds())/float64(sp.ExpectedStates()), len(res.Counts))
			res.Codes.Release()
		}
	}
}
