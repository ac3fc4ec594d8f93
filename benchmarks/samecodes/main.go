// Command samecodes reports whether two table files hold the same codes in every slot,
// whatever their metadata (creation time, build command, build seconds) says: the check
// behind "the faster build writes the same table" when a speed-up is measured.
//
//	go run ./benchmarks/samecodes OLD.tbl NEW.tbl
//
// It exits 0 when the slot counts and every code agree, 1 with the first differing slot
// otherwise, 2 when a file cannot be read.
package main

import (
	"fmt"
	"os"

	"github.com/tablesmith/tablesmith/format"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: samecodes A.tbl B.tbl")
		os.Exit(2)
	}
	same, err := compare(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "samecodes:", err)
		os.Exit(2)
	}
	fmt.Println(same)
	if same != "same codes" {
		os.Exit(1)
	}
}

// compare reads both files chunk by chunk and describes the first difference.
func compare(pathA, pathB string) (string, error) {
	a, err := format.Open(pathA)
	if err != nil {
		return "", err
	}
	defer a.Close()
	b, err := format.Open(pathB)
	if err != nil {
		return "", err
	}
	defer b.Close()
	slots := a.Meta().Slots
	if slots != b.Meta().Slots {
		return fmt.Sprintf("slot counts differ: %d and %d", slots, b.Meta().Slots), nil
	}
	const chunk = 1 << 20
	ca, cb := make([]uint32, chunk), make([]uint32, chunk)
	for start := uint64(0); start < slots; start += chunk {
		n := min(chunk, slots-start)
		if err := a.Codes(ca[:n], start); err != nil {
			return "", err
		}
		if err := b.Codes(cb[:n], start); err != nil {
			return "", err
		}
		for i := range n {
			if ca[i] != cb[i] {
				return fmt.Sprintf("slot %d: codes %d and %d", start+i, ca[i], cb[i]), nil
			}
		}
	}
	return "same codes", nil
}
