package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/tables"
)

func runInfo(e *env, args []string) error {
	fs := newFlags(e, "info", "[--json] FILE")
	asJSON := fs.Bool("json", false, "print the metadata as one JSON object")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one table FILE", errUsage)
	}
	t, err := tables.Open(pos[0])
	if err != nil {
		return err
	}
	defer t.Close()
	info := t.Info()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		return enc.Encode(info)
	}
	w := e.stdout
	params, _ := json.Marshal(info.Params)
	fmt.Fprintf(w, "file            %s\n", pos[0])
	fmt.Fprintf(w, "game            %s %s\n", info.Game, params)
	fmt.Fprintf(w, "index           %s (%s slots, %s holes)\n", info.Index, commas(info.Slots), commas(info.Holes))
	fmt.Fprintf(w, "states          %s reach the goal, %s cannot\n", commas(info.States), commas(info.Unreachable))
	fmt.Fprintf(w, "max remoteness  %d\n", info.MaxRemoteness)
	fmt.Fprintf(w, "size            %s (%.3f bits/state; %d-bit codes in %d zstd blocks of %d slots)\n",
		humanBytes(info.Bytes), info.BitsPerState, info.CodeBits, info.Blocks, info.SlotsPerBlock)
	fmt.Fprintf(w, "built           %s by %s %s, %d workers, %.2fs search\n",
		info.Build.Created.Format(time.RFC3339), info.Build.Tool, info.Build.GoVersion, info.Build.Workers, info.Build.Seconds)
	fmt.Fprintf(w, "counts          remoteness: states\n")
	for d, c := range info.Counts {
		if len(info.Counts) > 200 && d >= 100 && d < len(info.Counts)-100 {
			if d == 100 {
				fmt.Fprintf(w, "                … %d more levels (use --json for all)\n", len(info.Counts)-200)
			}
			continue
		}
		fmt.Fprintf(w, "                %4d: %s\n", d, commas(c))
	}
	return nil
}

func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify", "[--json] FILE")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one table FILE", errUsage)
	}
	// report prints the verdict: OK, CORRUPT (the file is damaged) or ERROR (it could
	// not be checked, e.g. it does not exist).
	report := func(err error, msg string) error {
		verdict := "OK"
		switch {
		case errors.Is(err, format.ErrCorrupt):
			verdict = "CORRUPT"
		case err != nil:
			verdict = "ERROR"
		}
		if err != nil {
			msg = err.Error()
		}
		if *asJSON {
			json.NewEncoder(e.stdout).Encode(map[string]any{"file": pos[0], "ok": err == nil, "verdict": verdict, "message": msg})
		} else {
			fmt.Fprintf(e.stdout, "%s: %s: %s\n", pos[0], verdict, msg)
		}
		if err != nil {
			return errSilentFail
		}
		return nil
	}
	t, err := tables.Open(pos[0])
	if err != nil {
		return report(err, "")
	}
	defer t.Close()
	bar := newStatus(e, t.Info().Slots)
	err = t.Verify(context.Background(), bar.write)
	bar.clear()
	if err != nil {
		return report(err, "")
	}
	info := t.Info()
	return report(nil, fmt.Sprintf("%d blocks checked, %s slots, counts match the metadata", info.Blocks, commas(info.Slots)))
}
