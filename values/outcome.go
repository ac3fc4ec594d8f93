package values

import "fmt"

// Outcome is what a table says of one state.
type Outcome uint8

const (
	// Remoteness: a puzzle state that reaches a goal, Remoteness moves away.
	Remoteness Outcome = iota + 1
	// Unreachable: a puzzle state that cannot reach any goal.
	Unreachable
	// Bound: a pattern-database lower bound on the moves to the goal.
	Bound
	// Win, Loss and Draw: a two-player position's value for the side to move; wins and
	// losses come with their remoteness in plies to the end of the game.
	Win
	Loss
	Draw
)

var outcomeNames = [...]string{
	Remoteness: "remoteness", Unreachable: "unreachable", Bound: "bound",
	Win: "win", Loss: "loss", Draw: "draw",
}

// String is the outcome's name as the JSON outputs spell it.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// MarshalText writes the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if n != "" && n == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("values: unknown outcome %q", b)
}

// HasRemoteness reports whether a value of this outcome carries a distance.
func (o Outcome) HasRemoteness() bool { return o == Remoteness || o == Bound || o == Win || o == Loss }
