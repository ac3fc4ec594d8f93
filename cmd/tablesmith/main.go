// Command tablesmith builds distance tables for puzzles and games, answers queries on
// them, and benchmarks the index schemes. Run `tablesmith help` for the commands; the
// command line itself is package cli, so that a program with games of its own can run it.
package main

import "github.com/tablesmith/tablesmith/cli"

func main() { cli.Main() }
