package tables

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/slide"
)

// Game names as they appear in table metadata.
const (
	GameSlide = "slide"
	GameHanoi = "hanoi"
)

// DomainFor recreates the game and index scheme that a table's metadata names.
func DomainFor(meta format.Metadata) (Domain, error) {
	switch meta.Game {
	case GameSlide:
		var p slide.Params
		if err := json.Unmarshal(orEmpty(meta.Params), &p); err != nil {
			return nil, fmt.Errorf("slide parameters %s: %w", meta.Params, format.ErrCorrupt)
		}
		p.Index = meta.Index
		sp, err := slide.NewSpace(p)
		if err != nil {
			return nil, err
		}
		return sp, nil
	case GameHanoi:
		var p hanoi.Params
		if err := json.Unmarshal(orEmpty(meta.Params), &p); err != nil {
			return nil, fmt.Errorf("hanoi parameters %s: %w", meta.Params, format.ErrCorrupt)
		}
		p.Index = meta.Index
		sp, err := hanoi.NewSpace(p)
		if err != nil {
			return nil, err
		}
		return sp, nil
	}
	return nil, fmt.Errorf("unknown game %q (this tablesmith reads %v)", meta.Game, Games())
}

// Games lists the games tables can read.
func Games() []string { return slices.Clone([]string{GameSlide, GameHanoi}) }

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

func rawOrEmpty(raw json.RawMessage) any { return orEmpty(raw) }
