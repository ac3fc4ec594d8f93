package main

import (
	"context"
	"fmt"
	"io"
	"strings"

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
