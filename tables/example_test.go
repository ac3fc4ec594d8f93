package tables_test

import (
	"fmt"

	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/tables"
)

// Probe a state by its notation: open the table, look the state up.
func ExampleOpen() {
	t, err := tables.Open("testdata/eight.tsm")
	if err != nil {
		panic(err)
	}
	defer t.Close()
	a, err := t.Lookup("867254301")
	fmt.Println(a.State, a.Outcome, a.Remoteness, err)
	// Output: 867254301 remoteness 31 <nil>
}

// Probe a typed state, here a Towers of Hanoi peg vector, without the notation.
func ExampleProbe() {
	t, err := tables.Open("testdata/hanoi-4x6.tsm")
	if err != nil {
		panic(err)
	}
	defer t.Close()
	a, err := tables.Probe(t, hanoi.Pegs{0, 0, 0, 0, 0, 0})
	fmt.Println(a.State, a.Remoteness, err)
	// Output: 000000 17 <nil>
}

// Walk a shortest path down the table.
func ExampleTable_Path() {
	t, err := tables.Open("testdata/eight.tsm")
	if err != nil {
		panic(err)
	}
	defer t.Close()
	path, err := t.Path("123405786")
	fmt.Println(path, err)
	// Output: [123405786 123450786 123456780] <nil>
}
