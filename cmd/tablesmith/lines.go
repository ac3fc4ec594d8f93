package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxStateLine bounds one line of states read from stdin: a longer line is answered with
// an error of its own and skipped, so that one bad line never stops the stream. The
// longest notation (a 5×5 board with separators) is under 100 bytes; the bound keeps a
// runaway line from costing memory.
const maxStateLine = 4 << 10

// forEachState calls answer for every state: each argument, or when there are none each
// non-empty line of stdin. tooLong is called instead for a line over maxStateLine with
// its first bytes; idle is called before a read of stdin that may block. It stops when
// ctx is done and returns only stdin read errors.
func forEachState(ctx context.Context, args []string, stdin io.Reader, answer func(state string), tooLong func(prefix string), idle func()) error {
	if len(args) > 0 {
		for _, s := range args {
			if ctx.Err() != nil {
				return nil
			}
			answer(strings.TrimSpace(s))
		}
		return nil
	}
	r := bufio.NewReaderSize(stdin, 64<<10)
	for ctx.Err() == nil {
		if r.Buffered() == 0 {
			idle()
		}
		line, long, err := readLine(r)
		if long {
			tooLong(line)
		} else if s := strings.TrimSpace(line); s != "" {
			answer(s)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading states from stdin: %w", err)
		}
	}
	return nil
}

// readLine reads one line; for a line over maxStateLine it returns the first 80 bytes,
// long = true, and discards the rest of the line.
func readLine(r *bufio.Reader) (line string, long bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if len(b) <= maxStateLine {
			b = append(b, chunk...)
		}
		if err != nil || !isPrefix {
			if len(b) > maxStateLine {
				return string(b[:80]), true, err
			}
			return string(b), false, err
		}
	}
}
