package pipeline

import (
	"context"
	"fmt"
)

// RunOptions tune RunUnits. The zero value runs one unit at a time.
type RunOptions struct {
	Jobs int // units at a time (0 or 1: one)
	// MemBytes is the memory budget: a unit starts only while its MemBytes fits beside
	// those of the units running (0: no limit). A unit alone always starts.
	MemBytes uint64
}

// RunUnits runs units in-process: run(ctx, i) does units[i], after every unit its Deps
// name (dependencies on units not in the list count as done). Ready units start in the
// list's order, up to opt.Jobs at a time and within the memory budget; with one job and
// the units in dependency order, in exactly that order. The first failure cancels the
// context of the units running and is returned once they have stopped; units that have
// not started are not started.
func RunUnits(ctx context.Context, units []Unit, opt RunOptions, run func(ctx context.Context, i int) error) error {
	jobs := max(opt.Jobs, 1)
	index := make(map[string]int, len(units))
	for i, u := range units {
		index[u.ID] = i
	}
	waiting := make([]int, len(units)) // dependencies not yet done
	dependents := make([][]int, len(units))
	for i, u := range units {
		for _, d := range u.Deps {
			if j, ok := index[d]; ok {
				waiting[i]++
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i   int
		err error
	}
	results := make(chan result)
	started := make([]bool, len(units))
	running, done := 0, 0
	var inUse uint64
	var first error
	for {
		for i := 0; first == nil && i < len(units) && running < jobs; i++ {
			mem := units[i].MemBytes
			if started[i] || waiting[i] > 0 || running > 0 && opt.MemBytes > 0 && inUse+mem > opt.MemBytes {
				continue
			}
			started[i], running, inUse = true, running+1, inUse+mem
			go func() { results <- result{i, run(ctx, i)} }()
		}
		if running == 0 {
			break
		}
		r := <-results
		running, done, inUse = running-1, done+1, inUse-units[r.i].MemBytes
		if r.err != nil && first == nil {
			first = r.err
			cancel()
		}
		for _, j := range dependents[r.i] {
			waiting[j]--
		}
	}
	if first == nil && done < len(units) {
		return fmt.Errorf("build: %d units wait on each other (a dependency cycle)", len(units)-done)
	}
	return first
}
