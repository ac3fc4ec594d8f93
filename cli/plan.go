package cli

import (
	"flag"
	"fmt"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/pipeline"
)

// maxTimeScale bounds --time-scale: a thousand times the estimate is already years for
// the largest units, and a larger factor (or Inf, 1e308) would overflow the jobs' --time.
const maxTimeScale = 1000

// planKindArgs follows the kind in `plan KIND`'s usage line.
const planKindArgs = "[flags] (-o DIR | DIR) [--emit table|json|slurm] [--submit]"

func planArgs() string { return planKinds() + " " + planKindArgs }

// planKinds lists what `plan` plans: every tiered game, pattern databases, verification.
func planKinds() string {
	var kinds []string
	for _, g := range registry.All() {
		if _, ok := g.(games.TieredGame); ok {
			kinds = append(kinds, g.Name())
		}
	}
	return strings.Join(append(kinds, "pdb", "verify", "slide"), "|")
}

// stringList is a flag that may be given many times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// sbatchFlags are --sbatch-flag's values: each one sbatch option, never empty (an empty
// word passed to sbatch would be read as its script's name).
type sbatchFlags struct{ stringList }

func (l *sbatchFlags) Set(v string) error {
	if !strings.HasPrefix(strings.TrimSpace(v), "-") {
		return fmt.Errorf("want one sbatch option such as --qos=long, not %q", v)
	}
	return l.stringList.Set(v)
}

// runPlan implements `tablesmith plan`: the units of work of a set that are not complete
// yet in DIR, with their dependencies and estimates — as a table, as JSON, or as a bash
// script that submits one Slurm job per unit (and with --submit, runs it).
func runPlan(e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprintf(e.stderr, "usage: tablesmith plan %s\n", planArgs())
		if len(args) == 0 {
			return fmt.Errorf("%w: want what to plan first: %s", errUsage, planKinds())
		}
		return flag.ErrHelp
	}
	kind, args := args[0], args[1:]
	if kind == "slide" {
		return runPlanSlide(e, args)
	}
	fs := newFlags(e, "plan "+kind, planKindArgs)
	var unitsOf func() (games.TieredGame, []pipeline.TierUnit, error)
	var tiered games.TieredGame
	var specOf func() (pipeline.PDBBuildSpec, error)
	slurmPartition := fs.String("slurm-partition", "", "the Slurm partition of every job")
	if g, err := registry.Lookup(kind); err == nil {
		tiered, _ = g.(games.TieredGame)
	}
	valueKind := func() (format.ValueKind, error) { return "", nil }
	switch {
	case tiered != nil:
		unitsOf = tierPlanFlags(fs, tiered, false)
		valueKind = valuesFlag(fs)
	case kind == "pdb":
		specOf = pdbSpecFlags(fs) // --partition is the tiles' here, as for build pdb
	case kind == "verify":
	default:
		return fmt.Errorf("%w: unknown plan %q (want %s)", errUsage, kind, planKinds())
	}
	if kind != "pdb" {
		fs.StringVar(slurmPartition, "partition", "", "the Slurm partition of every job (also --slurm-partition)")
	}
	out := fs.String("o", "", "the set's directory (not for verify)")
	emit := fs.String("emit", "table", "output: table, json, or slurm (a bash script of sbatch calls)")
	account := fs.String("account", "", "the Slurm account of every job")
	var sbatchFlags sbatchFlags
	fs.Var(&sbatchFlags, "sbatch-flag", "one more sbatch option for every job, e.g. --qos=long (repeatable)")
	submit := fs.Bool("submit", false, "run the Slurm script (bash, saved in DIR/logs) and print the job ids")
	cores := fs.Int("cores", 8, "cores a unit asks for at most (a unit gets one per 16M slots of work)")
	timeScale := fs.Float64("time-scale", 1, "multiply the time estimates (e.g. 2 after jobs ran over their time limit)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	dir := *out
	if kind == "verify" {
		if len(pos) != 1 || *out != "" {
			return fmt.Errorf("%w: plan verify takes the set's DIR, and no -o", errUsage)
		}
		dir, pos = pos[0], nil
	}
	switch {
	case len(pos) != 0:
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	case dir == "":
		return fmt.Errorf("%w: -o DIR is required", errUsage)
	case *emit != "table" && *emit != "json" && *emit != "slurm":
		return fmt.Errorf("%w: --emit must be table, json or slurm", errUsage)
	case *submit && *emit == "json":
		return fmt.Errorf("%w: --submit submits the Slurm script: not with --emit json", errUsage)
	case *cores < 1:
		return fmt.Errorf("%w: --cores must be at least 1", errUsage)
	case !(*timeScale >= 1 && *timeScale <= maxTimeScale): // NaN fails both
		return fmt.Errorf("%w: --time-scale must be a number from 1 to %d, not %v", errUsage, maxTimeScale, *timeScale)
	}
	// The jobs run on other machines: the binary and the set by absolute paths.
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if (*emit == "slurm" || *submit) && strings.ContainsRune(dir, '\\') {
		// sbatch processes no %x/%j at all in a --output pattern that holds a backslash.
		return fmt.Errorf("%w: the Slurm jobs' log pattern %s/logs/%%x-%%j.out cannot hold a backslash", errUsage, dir)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the tablesmith binary: %w", err)
	}
	kindOfValues, err := valueKind()
	if err != nil {
		return err
	}
	opt := pipeline.PlanOptions{Exe: exe, MaxCores: *cores, TimeScale: *timeScale, Values: kindOfValues}
	var units []pipeline.Unit
	switch {
	case tiered != nil:
		chosen, plan, err := unitsOf()
		if err != nil {
			return err
		}
		var want []games.Tier
		for _, u := range plan {
			want = append(want, u.Tiers...)
		}
		if units, err = pipeline.TierUnits(chosen, dir, want, opt); err != nil {
			return err
		}
	case kind == "pdb":
		spec, err := specOf()
		if err != nil {
			return err
		}
		if units, err = pipeline.PDBUnits(dir, spec, opt); err != nil {
			return err
		}
	default:
		if units, err = pipeline.VerifyUnits(dir, opt); err != nil {
			return err
		}
	}
	if units == nil {
		units = []pipeline.Unit{}
	}
	total, critical, chain := pipeline.CriticalPath(units)
	switch {
	case *emit == "json":
		return writeJSON(e, map[string]any{"dir": dir, "units": units, "total_slots": total,
			"critical_slots": critical, "critical_path": chain})
	case *emit == "table" && !*submit:
		return writeText(e, func(w io.Writer) { printPlan(w, dir, units, total, critical, chain) })
	}
	script := pipeline.SlurmScript(units, pipeline.SlurmOptions{LogDir: filepath.Join(dir, "logs"),
		Partition: *slurmPartition, Account: *account, Flags: sbatchFlags.stringList})
	if !*submit {
		return printf(e, "%s", script)
	}
	return submitScript(e, dir, script, len(units))
}

// printPlan writes the units as a table and the critical path under it.
func printPlan(w io.Writer, dir string, units []pipeline.Unit, total, critical uint64, chain []string) {
	if len(units) == 0 {
		fmt.Fprintf(w, "%s: complete, nothing to run\n", dir)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "unit\tcores\tmemory\ttime\tdisk\tslots\t after")
	var disk uint64
	for _, u := range units {
		deps := strings.Join(u.Deps, " ")
		if deps == "" {
			deps = "-"
		}
		disk += u.DiskBytes
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t %s\n", u.ID, u.Cores, humanize.Bytes(u.MemBytes),
			(time.Duration(u.Seconds) * time.Second).String(), humanize.Bytes(u.DiskBytes), commas(u.Slots), deps)
	}
	tw.Flush()
	plural := "s"
	if len(units) == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "%s: %d unit%s to run, %s slots, about %s of files; the longest chain, %s, holds %s slots: at most %.1f× faster on many machines than on one\n",
		dir, len(units), plural, commas(total), humanize.Bytes(disk), strings.Join(chain, " → "), commas(critical), float64(total)/float64(max(critical, 1)))
}

// submitScript saves the script in DIR/logs and runs it with bash; the script prints
// "unit job-id" per job.
func submitScript(e *env, dir, script string, n int) error {
	if n == 0 {
		return printf(e, "%s: complete, nothing to submit\n", dir)
	}
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return err
	}
	path := filepath.Join(logs, "submit-"+time.Now().UTC().Format("20060102-150405.000")+".sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		return err
	}
	cmd := exec.Command("bash", path)
	cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("submitting %s: %w (jobs submitted before the failure keep running; plan again to see what is missing)", path, err)
	}
	return nil
}
