package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestQueryStdinInOrder: many lines (good, unsolvable-free, malformed and over-long)
// answered by the batched workers come back in input order, each exactly as the same
// state given as an argument is answered.
func TestQueryStdinInOrder(t *testing.T) {
	path := eightTable(t)
	rng := rand.New(rand.NewPCG(7, 8))
	var in strings.Builder
	var states []string
	perm := []byte("012345678")
	for i := range 5000 {
		var s string
		switch {
		case i%997 == 5:
			s = "12345678x"
		case i%1999 == 11:
			s = strings.Repeat("9", 5000)
		default:
			rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
			s = string(perm)
		}
		states = append(states, s)
		fmt.Fprintf(&in, "  %s \n", s)
		if i%50 == 0 {
			in.WriteString("\n") // blank lines are skipped
		}
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"query"}
		if asJSON {
			args = append(args, "--json")
		}
		code, got, _ := runCmd(t, in.String(), append(args, path)...)
		if code != exitFail { // the malformed lines fail the run
			t.Fatalf("json=%v: exit %d", asJSON, code)
		}
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(lines) != len(states) {
			t.Fatalf("json=%v: %d answers for %d states", asJSON, len(lines), len(states))
		}
		// The states of ordinary length given as arguments, answered one after the
		// other on one goroutine: every stdin answer must be at its place among them.
		var short []string
		for _, s := range states {
			if len(s) <= 100 {
				short = append(short, s)
			}
		}
		_, seq, _ := runCmd(t, "", append(append(args, path), short...)...)
		want := strings.Split(strings.TrimSuffix(seq, "\n"), "\n")
		k := 0
		for i, s := range states {
			if len(s) > 100 {
				if !strings.Contains(lines[i], "line longer than") {
					t.Fatalf("json=%v: line %d: %q", asJSON, i, lines[i])
				}
				continue
			}
			if lines[i] != want[k] {
				t.Fatalf("json=%v: line %d: stdin gives %q, the argument %q", asJSON, i, lines[i], want[k])
			}
			k++
		}
	}
}

// TestQueryCoprocess: a program that writes one state and waits for its answer gets it
// before it writes the next (the batch closes when no more input is waiting).
func TestQueryCoprocess(t *testing.T) {
	path := eightTable(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		code := run(&env{stdin: inR, stdout: outW, stderr: &errb}, []string{"query", path})
		outW.Close()
		done <- code
	}()
	answers := bufio.NewReader(outR)
	for _, s := range []string{"123456780", "123456708", "867254301"} {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { l, _ := answers.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.HasPrefix(l, s+": remoteness ") {
				t.Fatalf("answer to %s: %q", s, l)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s while the input stays open", s)
		}
	}
	inW.Close()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d", code)
	}
}
