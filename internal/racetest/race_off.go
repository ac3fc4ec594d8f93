//go:build !race

package racetest

const raceEnabled = false
