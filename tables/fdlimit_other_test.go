//go:build !unix

package tables

import (
	"errors"
	"testing"
)

func lowerNofile(uint64) error { return errors.ErrUnsupported }
func fdLimitWorks() bool       { return false }
func runChild(t *testing.T, name string, env ...string) (string, error) {
	return "", errors.ErrUnsupported
}
