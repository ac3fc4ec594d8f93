package pipeline

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// SlurmOptions tune SlurmScript.
type SlurmOptions struct {
	LogDir    string   // each job writes LogDir/<job name>-<job id>.out; made first
	Partition string   // sbatch --partition, if set
	Account   string   // sbatch --account, if set
	Flags     []string // more sbatch options, one argument each (e.g. --qos=long)
}

// SlurmScript writes units as a bash script that submits one Slurm job per unit with
// `sbatch --parsable`: each job waits for the jobs of its prerequisites in units
// (--dependency=afterok, and is cancelled if one of them fails: --kill-on-invalid-dep)
// and asks for the unit's cores, memory and time. The script prints "unit job-id" per
// job. Units must come in dependency order, as the planners return them; dependencies
// on units not in the list (complete ones) are dropped.
func SlurmScript(units []Unit, opt SlurmOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/usr/bin/env bash\n")
	fmt.Fprintf(&b, "# tablesmith plan: %d units, one Slurm job each. A job starts when its prerequisites'\n", len(units))
	fmt.Fprintf(&b, "# jobs have succeeded and is cancelled when one fails. Each unit is idempotent: after a\n")
	fmt.Fprintf(&b, "# failure, plan again and submit the new script; it holds exactly the units still missing.\n")
	fmt.Fprintf(&b, "set -euo pipefail\n")
	fmt.Fprintf(&b, "mkdir -p %s\n", shellQuote(opt.LogDir))
	fmt.Fprintf(&b, "# submit prints the id of the job sbatch submits (--parsable prints \"id\" or \"id;cluster\").\n")
	fmt.Fprintf(&b, "submit() { local id; id=$(sbatch --parsable \"$@\") && [ -n \"$id\" ] || return 1; echo \"${id%%%%;*}\"; }\n")
	vars := map[string]string{}
	for _, u := range units {
		v := "JOB_" + nonWord.ReplaceAllString(u.ID, "_")
		args := []string{"--job-name=ts-" + u.ID, "--output=" + slurmPatternLiteral(strings.TrimSuffix(opt.LogDir, "/")) + "/%x-%j.out",
			"-c", fmt.Sprint(u.Cores), fmt.Sprintf("--mem=%dM", (u.MemBytes+(1<<20)-1)>>20),
			"--time=" + slurmTime(u.Seconds), "--kill-on-invalid-dep=yes"}
		var after []string
		for _, d := range u.Deps {
			if dv, ok := vars[d]; ok {
				after = append(after, "$"+dv)
			}
		}
		if opt.Partition != "" {
			args = append(args, "--partition="+opt.Partition)
		}
		if opt.Account != "" {
			args = append(args, "--account="+opt.Account)
		}
		args = append(args, opt.Flags...)
		for i, a := range args {
			args[i] = shellQuote(a)
		}
		if len(after) > 0 { // unquoted: the shell expands the job ids
			args = append(args, "--dependency=afterok:"+strings.Join(after, ":"))
		}
		cmd := make([]string, len(u.Command))
		for i, c := range u.Command {
			cmd[i] = shellQuote(c)
		}
		args = append(args, "--wrap="+shellQuote(strings.Join(cmd, " ")))
		fmt.Fprintf(&b, "%s=$(submit %s)\n", v, strings.Join(args, " "))
		fmt.Fprintf(&b, "echo %s \"$%s\"\n", shellQuote(u.ID), v)
		vars[u.ID] = v
	}
	return b.String()
}

var (
	nonWord   = regexp.MustCompile(`[^A-Za-z0-9_]`)
	shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
)

// slurmPatternLiteral writes s for a Slurm filename pattern (--output) so that it stands
// for itself: sbatch replaces %x, %j, … and reads "%%" as one '%'. (A backslash in a
// pattern turns off every replacement in it; the caller's directory is passed as it is
// and SlurmScript's callers refuse such a directory.)
func slurmPatternLiteral(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// shellQuote quotes s for a POSIX shell, leaving plain words as they are.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// slurmTime writes a duration as Slurm's --time takes it, rounded up to whole minutes:
// H:MM:00, or D-HH:MM:00 from a day on.
func slurmTime(seconds float64) string {
	m := int(math.Ceil(max(seconds, 60) / 60))
	d, h, m := m/(24*60), m/60%24, m%60
	if d > 0 {
		return fmt.Sprintf("%d-%02d:%02d:00", d, h, m)
	}
	return fmt.Sprintf("%d:%02d:00", h, m)
}
