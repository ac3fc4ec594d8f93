package serve

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends r as JSON to b, byte for byte what json.Marshal(r) writes, without
// reflection or allocation for the usual answers: `query --json` and the NDJSON probe
// stream write millions of them.
func (r *Result) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if r.Move != "" {
		b = appendJSONString(append(b, `"move":`...), r.Move)
		b = append(b, ',')
	}
	if r.endsGame() {
		b = b[:len(b)-1] // the comma after "move"
	} else {
		b = appendJSONString(append(b, `"state":`...), r.State)
	}
	if r.Value != "" {
		b = appendJSONString(append(b, `,"value":`...), r.Value)
	}
	if r.Remoteness != nil {
		b = strconv.AppendInt(append(b, `,"remoteness":`...), int64(*r.Remoteness), 10)
	}
	if r.Bound != nil {
		b = strconv.AppendInt(append(b, `,"bound":`...), int64(*r.Bound), 10)
	}
	if r.Reachable != nil {
		b = strconv.AppendBool(append(b, `,"reachable":`...), *r.Reachable)
	}
	if r.Over {
		b = append(b, `,"over":true`...)
	}
	if len(r.Path) > 0 {
		b = append(b, `,"path":[`...)
		for i, s := range r.Path {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, s)
		}
		b = append(b, ']')
	}
	if r.Error != "" {
		b = appendJSONString(append(b, `,"error":`...), r.Error)
	}
	if len(r.Moves) > 0 {
		b = append(b, `,"moves":[`...)
		for i := range r.Moves {
			if i > 0 {
				b = append(b, ',')
			}
			b = r.Moves[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSON appends v as JSON: a Result by its own encoder, anything else by
// encoding/json.
func appendJSON(b []byte, v any) ([]byte, error) {
	if r, ok := v.(Result); ok {
		return r.AppendJSON(b), nil
	}
	m, err := json.Marshal(v)
	return append(b, m...), err
}

// appendJSONString appends s quoted as encoding/json quotes it. Notations are printable
// ASCII and copied as they are; anything else (control bytes, HTML-sensitive characters,
// non-ASCII, invalid UTF-8 in an echoed bad state) goes through encoding/json itself, so
// the two can never disagree.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
