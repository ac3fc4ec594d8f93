package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// maxWorkers is the most goroutines a --workers or --jobs flag may ask for: four per CPU
// this process may run on, and at least 64. More buy nothing for CPU-bound work and cost
// memory and time per worker before the first state is expanded (50,000,000 workers took
// ~0.5 GB/s and never reached the point where a signal is checked).
func maxWorkers() int { return max(64, 4*runtime.NumCPU()) }

// checkWorkers refuses a worker count below 1 or above maxWorkers, naming the flag.
func checkWorkers(flagName string, n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("%w: --%s must be at least 1", errUsage, flagName)
	case n > maxWorkers():
		return fmt.Errorf("%w: --%s %d is too many: at most %d (4 per CPU, %d CPUs here, and at least 64)",
			errUsage, flagName, n, maxWorkers(), runtime.NumCPU())
	}
	return nil
}

// checkWorkerFlags checks every worker-count flag fs declares (--workers, --jobs) with
// checkWorkers, once fs is parsed.
func checkWorkerFlags(fs *flag.FlagSet) error {
	for _, name := range []string{"workers", "jobs"} {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		if n, ok := g.Get().(int); ok {
			if err := checkWorkers(name, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// signalContext is cancelled by the first SIGINT or SIGTERM, so that a command stops
// cleanly (a build keeps its checkpoint, a temporary file is removed); once it is
// cancelled, a second signal has its default effect and ends the process at once, even
// if the command is not checking the context yet.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// flagSet reports whether the flag name was given on the command line (a value equal
// to the default included).
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
