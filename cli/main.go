// Package cli is the tablesmith command line: it builds distance tables for puzzles and
// games, answers queries on them, and benchmarks the index schemes. Command
// cmd/tablesmith is Main; a program in another module that registers games of its own
// (games/registry.Register) runs the same command line over them by calling Main too.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// Exit codes: 0 success, 1 a failed check or a bad answer, 2 bad usage.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// errUsage marks errors in how a command was called.
var errUsage = errors.New("usage")

type command struct {
	name, args, summary string
	run                 func(env *env, args []string) error
}

// env is what a command may touch, so tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTerm   bool
	args           []string // the command line after the program name, for build records
}

func commands() []command {
	return []command{
		{"build", buildArgs(), "build a table by breadth-first search (pdb: a pattern-database set)", runBuild},
		{"convert", convertArgs, "derive a win/draw/loss-only set from a full two-player set", runConvert},
		{"plan", planArgs(), "the units of work still missing from a set: a table, JSON or a Slurm script", runPlan},
		{"query", queryArgs, "look up states (from stdin when none are given)", runQuery},
		{"info", infoArgs, "show the metadata and counts of a table or a set", runInfo},
		{"verify", verifyArgs, "check checksums, counts and the values themselves", runVerify},
		{"solve", "[--algo astar|idastar] [--heuristic H] [--pdb DIR] [--json] [STATE ...]", "solve states optimally (from stdin when none are given)", runSolve},
		{"bench", benchArgs, "compare index schemes side by side (8-puzzle, Hanoi, Mühle)", runBench},
		{"serve", serveArgs, "serve tables over HTTP: a JSON API and an explorer page", runServe},
	}
}

// Main runs the tablesmith command line on os.Args and exits with its status: 0 on
// success, 1 on a failed check, 2 on bad usage. Games registered before it is called
// (games/registry.Register) are built, read, verified and served like the built-in ones.
func Main() {
	// A reader that closed the pipe on stdout (`tablesmith query … | head -1`) makes the
	// next write fail with EPIPE, reported like any lost output (exit 1, one line naming
	// standard output), instead of killing the process with SIGPIPE (status 141, no
	// word). Notify, not Ignore: an ignored signal would stay ignored in the programs
	// this one starts (plan --submit runs bash and sbatch); a caught one is reset.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrIsTerm: isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	e.args = args
	// Every write to stdout goes through out, which remembers the first failure (a full
	// disk, /dev/full, a closed pipe): a command whose output was lost does not exit 0.
	out := &errWriter{w: e.stdout}
	e.stdout = out
	code := dispatch(e, args)
	if out.err != nil && (code == exitOK || code == exitFail) {
		// The one report of lost output, whether the command saw the failed write or
		// not: dispatch leaves errors that wrap out.err to this line.
		name := "tablesmith"
		if len(args) > 0 {
			name += " " + args[0]
		}
		fmt.Fprintf(e.stderr, "%s: writing to standard output: %v\n", name, errCause(out.err))
		return exitFail
	}
	return code
}

// errCause is err without the *fs.PathError around it: "broken pipe", not "write
// /dev/stdout: broken pipe" (standard output need not be /dev/stdout).
func errCause(err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func dispatch(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(e, args[1:])
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.Is(err, errUsage):
			fmt.Fprintf(e.stderr, "tablesmith %s: %v\n", c.name, err)
			fmt.Fprintf(e.stderr, "usage: tablesmith %s %s (-h for flags)\n", c.name, c.args)
			return exitUsage
		case errors.Is(err, errSilentFail), stdoutFailed(e, err):
			return exitFail // reported already, or by run
		case errors.Is(err, context.Canceled): // SIGINT or SIGTERM (signalContext)
			fmt.Fprintf(e.stderr, "tablesmith %s: interrupted%s\n", c.name, resumeHint[c.name])
			return exitFail
		default:
			fmt.Fprintf(e.stderr, "tablesmith %s: %s\n", c.name, untagged(c.name, err))
			return exitFail
		}
	}
	fmt.Fprintf(e.stderr, "tablesmith: unknown command %q\n", args[0])
	usage(e.stderr)
	return exitUsage
}

// resumeHint is what an interrupted command says of going on.
var resumeHint = map[string]string{
	"build":   "; run the same command again to resume (the units finished, and checkpoints, are kept)",
	"convert": "; run the same command again to resume (the tiers converted are kept)",
	"verify":  "; nothing was changed",
}

// untagged is err's message without the tags of the packages it passed through that
// repeat the command's name ("tablesmith convert: convert: build: …" says "convert" and
// "build" once, as "tablesmith convert: …").
func untagged(cmd string, err error) string {
	msg := err.Error()
	for {
		trimmed := strings.TrimPrefix(strings.TrimPrefix(msg, cmd+": "), "build: ")
		if trimmed == msg {
			return msg
		}
		msg = trimmed
	}
}

// stdoutFailed reports whether err is (or wraps) the failed write to standard output
// that run reports.
func stdoutFailed(e *env, err error) bool {
	out, ok := e.stdout.(*errWriter)
	return ok && out.err != nil && errors.Is(err, out.err)
}

// errSilentFail is returned by commands that already reported their failures (for
// example, query lines with errors) and only need the exit status.
var errSilentFail = errors.New("failed")

func usage(w io.Writer) {
	fmt.Fprintln(w, "tablesmith — builds pattern databases and endgame tables, and answers queries on them.")
	fmt.Fprintln(w, "\nusage: tablesmith <command> [flags] [args]")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-7s %-40s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'tablesmith <command> -h' for a command's flags.")
}

// newFlags makes a command's flag set; errors are returned, not printed and exited.
func newFlags(e *env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	// A command's args may start with its last word ("build mill" and "mill (--pair …)"):
	// the usage line names it once.
	if i := strings.LastIndexByte(name, ' '); i >= 0 {
		args = strings.TrimPrefix(args, name[i+1:]+" ")
	}
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: tablesmith %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterspersed parses flags that may come before, between or after the positional
// arguments (`tablesmith query data/x.tsm --json`), and returns the positionals.
//
// On a bad flag the flag package's own message and usage are held back: the caller prints
// the error and one usage line, so the usage is not printed twice. -h prints the full
// usage with every flag.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	out := fs.Output()
	usage := fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				usage()
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isTerminal asks the terminal driver: a character device such as /dev/null is no
// terminal, so a Stat check would draw progress into 2>/dev/null.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
