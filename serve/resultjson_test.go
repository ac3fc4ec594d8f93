package serve

import (
	"encoding/json"
	"testing"
)

func intp(v int) *int    { return &v }
func boolp(v bool) *bool { return &v }

// TestAppendJSONMatchesMarshal: the hand-written encoder against encoding/json, on
// every field combination the probes produce and on strings that need escaping.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	cases := []Result{
		{State: "123456780", Remoteness: intp(0)},
		{State: "867254301", Remoteness: intp(31)},
		{State: "123456708", Reachable: boolp(false)},
		{State: "1,2,3|4,5,6", Bound: intp(-1)},
		{State: "W.B", Value: "draw"},
		{State: "WWW.....BBB............. B", Value: "win", Remoteness: intp(7),
			Moves: []Result{{Move: "1-2x9", State: "x", Value: "loss", Remoteness: intp(6)}, {Move: "3-4", State: "y", Value: "draw"}}},
		{State: "123456708", Remoteness: intp(1), Path: []string{"123456708", "123456780"}},
		{State: "bad\x00state\n", Error: `line "x" <b> & 'c'`},
		{State: "\xff\xfe invalid utf-8", Error: "Mühle \u2028 separator"},
		{State: "", Error: "empty"},
		{Move: "a\"b\\c", State: "\t"},
		{Move: "14-2x9", Value: "loss", Remoteness: intp(0)}, // it ends the game: no state
		{State: "XXXOO....", Value: "loss", Remoteness: intp(0), Over: true},
		{State: "XOXXOOOXX", Value: "draw", Over: true},
		{State: "W.W.....B.B..W......B... W", Value: "win", Remoteness: intp(1),
			Moves: []Result{{Move: "14-2x9", Value: "loss", Remoteness: intp(0)}, {Move: "14-10", State: "x", Value: "loss", Remoteness: intp(14)}}},
	}
	for _, r := range cases {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON(nil); string(got) != string(want) {
			t.Errorf("AppendJSON = %s\njson.Marshal = %s", got, want)
		}
	}
	// The fixed order, and no state for the move that ends the game.
	r := cases[len(cases)-1]
	want := `{"state":"W.W.....B.B..W......B... W","value":"win","remoteness":1,"moves":[{"move":"14-2x9","value":"loss","remoteness":0},{"move":"14-10","state":"x","value":"loss","remoteness":14}]}`
	if got := string(r.AppendJSON(nil)); got != want {
		t.Errorf("AppendJSON = %s\nwant %s", got, want)
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add("123456780", "error <x>", "1-2", "win", 3, true)
	f.Add("\xff", "", "", "", -1, false)
	f.Fuzz(func(t *testing.T, state, errText, move, value string, d int, withMoves bool) {
		r := Result{State: state, Error: errText, Value: value, Remoteness: intp(d), Path: []string{move, state}}
		if withMoves {
			r.Moves = []Result{{Move: move, State: state, Bound: intp(d)}, {Move: value, Reachable: boolp(d%2 == 0)}}
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("AppendJSON = %q\njson.Marshal = %q", got, want)
		}
	})
}
