// Command customgame is tablesmith's command line with one more game, scorch (package
// scorch, registered when imported): `go run . build scorch -o DIR`, then query, info,
// verify and serve DIR as with any game tablesmith knows.
package main

import (
	"github.com/tablesmith/tablesmith/cli"

	_ "example.com/customgame/scorch" // registers the game "scorch"
)

func main() { cli.Main() }
