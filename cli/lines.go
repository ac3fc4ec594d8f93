package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tablesmith/tablesmith/serve"
)

// forEachState calls answer for every state: each argument, or when there are none each
// non-empty line of stdin (see serve.ReadStates: a line over serve.MaxStateLine goes to
// tooLong instead, idle is called before a read of stdin that may block). It stops when
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
	if err := serve.ReadStates(ctx, stdin, answer, tooLong, idle); err != nil {
		return fmt.Errorf("reading states from stdin: %w", err)
	}
	return nil
}

// answerLines answers every non-empty line of stdin (as forEachState) on workers
// goroutines and writes the answers to out in input order. answer appends one state's
// answer to dst and says whether it is a failure; long marks a line over
// serve.MaxStateLine (state is then its prefix). answerLines returns whether any answer
// failed, and stdin read errors. It stops reading when a write to out fails (a reader
// that closed the pipe, a full disk): the caller's flush then reports the error.
//
// Lines go out in batches: a batch closes at batchLines lines, or as soon as no more
// input is waiting, and out is flushed after such a batch is written. So a co-process
// that writes a state and waits gets its answer at once, while a pipe of millions of
// states is answered by every core, a batch at a time, with one write per 64 KiB.
func answerLines(ctx context.Context, stdin io.Reader, out *bufio.Writer, workers int,
	answer func(dst []byte, state string, long bool) ([]byte, bool)) (failed bool, err error) {
	const batchLines = 2048
	ctx, outFailed := context.WithCancel(ctx)
	defer outFailed()
	type line struct {
		end  int // the state is text[previous end:end]
		long bool
	}
	type batch struct {
		buf    []byte // the lines' bytes while the batch fills
		text   string // buf once the batch is sent: one allocation for all its states
		lines  []line
		flush  bool // no more input was waiting when the batch closed
		out    []byte
		failed bool
		done   chan struct{}
	}
	jobs := make(chan *batch, 2*workers)
	inOrder := make(chan *batch, 4*workers)
	// Written batches come back to the reader, buffers and all: the steady state of a
	// long stream allocates nothing but each batch's text.
	free := make(chan *batch, 4*workers+2)
	newBatch := func() *batch {
		select {
		case b := <-free:
			b.lines, b.buf, b.out, b.failed = b.lines[:0], b.buf[:0], b.out[:0], false
			return b
		default:
			return &batch{lines: make([]line, 0, batchLines)}
		}
	}
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for b := range jobs {
				start := 0
				for _, l := range b.lines {
					var f bool
					b.out, f = answer(b.out, b.text[start:l.end], l.long)
					b.failed = b.failed || f
					start = l.end
				}
				close(b.done)
			}
		})
	}
	written := make(chan bool)
	go func() {
		anyFailed := false
		for b := range inOrder {
			<-b.done
			_, werr := out.Write(b.out)
			anyFailed = anyFailed || b.failed
			if b.flush && werr == nil {
				werr = out.Flush()
			}
			if werr != nil {
				outFailed()
			}
			b.text = ""
			select {
			case free <- b:
			default:
			}
		}
		written <- anyFailed
	}()

	cur := &batch{}
	send := func(flush bool) {
		cur.text = string(cur.buf)
		cur.flush, cur.done = flush, make(chan struct{})
		inOrder <- cur
		jobs <- cur
		cur = newBatch()
	}
	unflushed := false // a batch went out since the last flush
	add := func(b []byte, long bool) {
		cur.buf = append(cur.buf, b...)
		cur.lines = append(cur.lines, line{end: len(cur.buf), long: long})
		if len(cur.lines) == batchLines {
			send(false)
			unflushed = true
		}
	}
	idle := func() {
		if len(cur.lines) > 0 || unflushed {
			send(true) // possibly empty: it only flushes the batches before it
			unflushed = false
		}
	}
	err = serve.ReadLines(ctx, stdin, add, idle)
	send(true)
	close(jobs)
	close(inOrder)
	failed = <-written
	wg.Wait()
	return failed, err
}
