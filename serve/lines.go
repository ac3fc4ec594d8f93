package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// MaxStateLine bounds one line of states (the CLI's stdin, the API's POST body): a longer
// line is answered with an error of its own and skipped, so that one bad line never stops
// the stream. The longest notation (a 5×5 board with separators) is under 100 bytes; the
// bound keeps a runaway line from costing memory.
const MaxStateLine = 4 << 10

// ReadStates calls answer for every non-empty line of r, trimmed of surrounding space.
// tooLong is called instead for a line over MaxStateLine with its first 80 bytes; idle is
// called before a read that may block (to flush answers already written). It stops when
// ctx is done and returns only read errors.
func ReadStates(ctx context.Context, r io.Reader, answer func(state string), tooLong func(prefix string), idle func()) error {
	return ReadLines(ctx, r, func(line []byte, long bool) {
		if long {
			tooLong(string(line))
		} else {
			answer(string(line))
		}
	}, idle)
}

// ReadLines is ReadStates for callers that keep the bytes themselves (a batch of lines
// in one buffer, say): line is valid only until it returns.
func ReadLines(ctx context.Context, r io.Reader, line func(b []byte, long bool), idle func()) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var scratch []byte
	for ctx.Err() == nil {
		if br.Buffered() == 0 {
			idle()
		}
		b, long, err := readLine(br, &scratch)
		if long {
			line(b, true)
		} else if s := bytes.TrimSpace(b); len(s) > 0 {
			line(s, false)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readLine reads one line; for a line over MaxStateLine it returns the first 80 bytes,
// long = true, and discards the rest of the line. The line is valid until the next read:
// it is the reader's own buffer, or scratch for a line longer than the buffer.
//
// A line is whole when its newline was read, or when the input ended (io.EOF) after it.
// A line cut short by any other error (a request body over its limit, a failed read) is
// never returned: answering its first bytes as a state would answer a state that was
// not sent ("12345678" of "1234567801"). Then readLine returns no line and the error.
func readLine(r *bufio.Reader, scratch *[]byte) (line []byte, long bool, err error) {
	chunk, err := r.ReadSlice('\n')
	b := chunk
	if errors.Is(err, bufio.ErrBufferFull) { // longer than the buffer: gather it in scratch
		b = append((*scratch)[:0], chunk...)
		for errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = r.ReadSlice('\n')
			if len(b) <= MaxStateLine {
				b = append(b, chunk...)
			}
		}
		*scratch = b
	}
	if err == nil { // the newline was read
		b = bytes.TrimSuffix(b, []byte{'\n'})
	}
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		return nil, false, err
	case len(b) > MaxStateLine:
		return b[:80], true, err
	}
	return b, false, err
}
