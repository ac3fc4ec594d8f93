package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
)

// entry is one table or set the server answers from; its JSON is an item of the list.
type entry struct {
	Name   string          `json:"name"`            // the URL name, unique
	Kind   string          `json:"kind"`            // the game's kind: puzzle, pdb, two-player
	Game   string          `json:"game"`            // the registry's game name: the page's board renderer
	Params json.RawMessage `json:"params"`          // the game's parameters (board size, pegs, …)
	Board  *games.Board    `json:"board,omitempty"` // a board of points and lines, as data (games.Boarded)
	Set    bool            `json:"set"`             // info is a tables.SetInfo, not a tables.Info
	Info   any             `json:"info"`

	src   Source
	chart []byte // the distribution SVG, drawn once
	// hide maps what names the server's files in an error (the path as given, absolute,
	// with links resolved) to what an answer may say: base names only.
	hide *strings.Replacer
}

// newHider returns what replaces every spelling of path in a message: the directory of
// a set and the separator after it vanish (a member is named by its file's base name),
// a table file becomes its base name.
func newHider(path string) *strings.Replacer {
	forms := []string{path, filepath.Clean(path)}
	if abs, err := filepath.Abs(path); err == nil {
		forms = append(forms, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			forms = append(forms, real)
		}
	}
	base := filepath.Base(filepath.Clean(path))
	// Longer spellings first: strings.Replacer tries the old strings in argument order
	// at each position.
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	sep := string(filepath.Separator)
	for _, f := range slices.Compact(forms) {
		switch {
		case f == "" || f == ".":
		case !filepath.IsAbs(f) && !strings.Contains(f, sep):
			// A one-segment relative name ("mill"): only where a path starts (after a
			// space, a quote, or at the start: see scrub), so that text which merely
			// holds it ("3/" in a sliding puzzle's rows) is left alone.
			pairs = append(pairs, " "+f+sep, " ", `"`+f+sep, `"`)
		default:
			pairs = append(pairs, f+sep, "", f, base)
		}
	}
	return strings.NewReplacer(pairs...)
}

// scrub rewrites a message about e for an answer: no server-side path in it.
func (e *entry) scrub(msg string) string {
	if e.hide == nil {
		return msg
	}
	return strings.TrimPrefix(e.hide.Replace(" "+msg), " ")
}

// publicBuild is a build record as an answer shows it: without the host and the command
// line (which names the building machine's directories).
func publicBuild(b format.Build) format.Build {
	b.Host, b.Command = "", ""
	return b
}

// publicManifest is the manifest of a set as an answer shows it (publicBuild).
func publicManifest(m *format.Manifest) json.RawMessage {
	c := *m
	if c.Build != nil {
		b := publicBuild(*c.Build)
		c.Build = &b
	}
	c.Members = slices.Clone(m.Members)
	for i := range c.Members {
		if x := c.Members[i].Build; x != nil {
			b := publicBuild(*x)
			c.Members[i].Build = &b
		}
	}
	raw, _ := json.Marshal(&c)
	return raw
}

// add opens path: a set directory, a table file, or (top level only) a directory whose
// table files and set directories are each added.
func (s *Server) add(path string, top bool) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	switch {
	case tables.IsSet(path):
		set, err := tables.OpenSet(path)
		if err != nil {
			return err
		}
		// The explorer lists every member's summary, so every member is opened now: a
		// damaged one is refused here, at start, rather than at its first probe.
		if err := set.OpenMembers(); err != nil {
			set.Close()
			return err
		}
		s.addSet(path, set)
	case st.IsDir() && top:
		des, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		n := len(s.entries)
		for _, de := range des {
			sub := filepath.Join(path, de.Name())
			if de.Type().IsRegular() && strings.HasSuffix(de.Name(), ".tsm") || de.IsDir() && tables.IsSet(sub) {
				if err := s.add(sub, false); err != nil {
					return err
				}
			}
		}
		if len(s.entries) == n {
			return fmt.Errorf("serve: %s holds no table file (*.tsm) and no set", path)
		}
	case st.IsDir():
		if err := CheckNotSetDir(path); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		return fmt.Errorf("serve: %s is a directory but not a set", path)
	default:
		if err := CheckNotManifest(path); err != nil {
			return err
		}
		t, err := tables.Open(path)
		if err != nil {
			return err
		}
		s.addTable(path, t)
	}
	return nil
}

func (s *Server) addTable(path string, t *tables.Table) {
	info := t.Info()
	info.File = filepath.Base(info.File) // no server paths or hosts in answers
	info.Build = publicBuild(info.Build)
	in := t.Instance()
	s.insert(&entry{Name: s.uniqueName(path), Kind: games.KindOf(in.Game), Game: in.Game.Name(), Params: info.Params,
		Board: boardOf(in.Space, in.Game), Info: info, src: t, chart: DistributionSVG(info), hide: newHider(path)})
}

// boardOf describes the board of the first of xs that is played on one (games.Boarded):
// a table's space before its game, for the space plays the rules its parameters name.
func boardOf(xs ...any) *games.Board {
	for _, x := range xs {
		if b, ok := x.(games.Boarded); ok {
			d := b.Board()
			return &d
		}
	}
	return nil
}

func (s *Server) addSet(path string, set *tables.Set) {
	info := set.Info()
	// No server paths or hosts in answers: base names, builds without host and command.
	info.Dir = filepath.Base(filepath.Clean(info.Dir))
	info.Manifest = publicManifest(set.Manifest())
	for i := range info.Members {
		info.Members[i].File = filepath.Base(info.Members[i].File)
		info.Members[i].Build = publicBuild(info.Members[i].Build)
	}
	e := &entry{Name: s.uniqueName(path), Set: true, Info: info, src: set, chart: SetDistributionSVG(info), hide: newHider(path)}
	if g := set.Tiered(); g != nil { // from the manifest's game: no member's instance needed
		e.Kind, e.Game = games.KindOf(g), g.Name()
	} else if ts := set.Tables(); len(ts) > 0 {
		if in := ts[0].Instance(); in != nil { // nil: its probes say why
			e.Kind, e.Game, e.Params = games.KindOf(in.Game), in.Game.Name(), info.Members[0].Params
		}
	}
	if m := set.Manifest(); m.Kind == format.SetPDB && len(m.Params) > 0 { // the board, not the first group's tiles
		e.Params = m.Params
	}
	if g := set.Tiered(); g != nil { // the tiers, not the first one's parameters; the board of the set's rules
		e.Params, _ = json.Marshal(map[string][]string{g.TierNoun() + "s": set.TierNames()})
		e.Board = boardOf(g)
	}
	s.insert(e)
}

func (s *Server) insert(e *entry) {
	s.entries = append(s.entries, e)
	s.byName[e.Name] = e
}

// uniqueName names a table after its file (without .tsm) or directory, keeping letters,
// digits, '.', '_' and '-' (anything else becomes '-'), and numbering repeats: eight,
// eight-2, eight-3.
func (s *Server) uniqueName(path string) string {
	base := strings.TrimSuffix(filepath.Base(filepath.Clean(path)), ".tsm")
	name := []byte(base)
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			name[i] = '-'
		}
	}
	if strings.Trim(string(name), ".") == "" {
		name = []byte("table")
	}
	n := string(name)
	for i := 2; s.byName[n] != nil; i++ {
		n = string(name) + "-" + strconv.Itoa(i)
	}
	return n
}

// errNoTables is New's error when no path was given.
var errNoTables = errors.New("serve: no tables to serve")
