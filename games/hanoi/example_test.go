package hanoi_test

import (
	"fmt"

	"github.com/tablesmith/tablesmith/games/hanoi"
)

func ExampleParse() {
	st, err := hanoi.Parse("0120", 3, 4)
	fmt.Println(st, err)
	_, err = hanoi.Parse("0170", 4, 4)
	fmt.Println(err)
	_, err = hanoi.Parse("01201", 4, 4)
	fmt.Println(err)
	// Output:
	// [0 1 2 0] <nil>
	// invalid hanoi state "0170": disk 3 is on peg 7, but there are only 4 pegs (0-3)
	// invalid hanoi state "01201": got 5 peg digits, want 4 (one per disk)
}

func ExampleCanonical() {
	st, _ := hanoi.Parse("0121", 3, 4)
	canon, toUser := hanoi.Canonical(nil, st, 3)
	fmt.Println(hanoi.Format(canon), toUser[:3])
	// Output: 1020 [1 0 2]
}

func ExampleSpace() {
	sp, _ := hanoi.NewSpace(hanoi.Params{Pegs: 4, Disks: 3})
	fmt.Println(sp.Params().Index, sp.Slots(), hanoi.ClassCount(4, 3), sp.Goals())
	a, _, _ := sp.Slot("012")
	b, _, _ := sp.Slot("102") // pegs 0 and 1 swapped: the same class
	fmt.Println(a == b)
	nb, _ := sp.Neighbors("012")
	fmt.Println(nb)
	// Output:
	// classes 15 15 [0]
	// true
	// [112 212 312 022 032 013]
}
