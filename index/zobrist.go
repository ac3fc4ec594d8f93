package index

// DefaultZobristSeed is the seed tablesmith uses for its Zobrist keys (the 64-bit
// golden-ratio constant). With it the 8-puzzle's 9! boards hash without collision.
const DefaultZobristSeed = 0x9E3779B97F4A7C15

// Zobrist hashes boards (one tile per cell, tile 0 the blank) as the XOR of random
// 64-bit keys, one per (cell, tile) pair (Zobrist 1970). It is a hash, not a rank:
// it cannot be inverted and distinct boards may collide, so it serves a hash set of
// visited states. Its merit is the O(1) update when one tile moves. A Zobrist is
// immutable after construction and safe for concurrent use.
type Zobrist struct {
	cells, tiles int
	keys         []uint64 // keys[cell*tiles+tile]
}

// NewZobrist returns keys for boards of cells cells and tiles tile values (0 the
// blank, so tiles = cells for a sliding-tile puzzle), drawn in order cell by cell
// from the splitmix64 stream of seed: the same seed always gives the same keys. It
// panics when cells or tiles is not positive.
func NewZobrist(cells, tiles int, seed uint64) *Zobrist {
	if cells <= 0 || tiles <= 0 {
		panic("index.NewZobrist: cells and tiles must be positive")
	}
	z := &Zobrist{cells: cells, tiles: tiles, keys: make([]uint64, cells*tiles)}
	state := seed
	for i := range z.keys {
		z.keys[i] = splitmix64(&state)
	}
	return z
}

// splitmix64 advances *state and returns the next output of Vigna's splitmix64.
func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	z := *state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Key returns the key of tile on cell (cell < cells, tile < tiles).
func (z *Zobrist) Key(cell int, tile uint8) uint64 {
	return z.keys[cell*z.tiles+int(tile)]
}

// Hash returns the XOR of Key(i, board[i]) over the cells of board, which has at
// most cells entries, each below tiles.
func (z *Zobrist) Hash(board []uint8) uint64 {
	var h uint64
	for i, t := range board {
		h ^= z.keys[i*z.tiles+int(t)]
	}
	return h
}

// Move returns the hash after the tile at cell from moves into the blank at cell to
// (the blank, tile 0, moves the other way), in O(1): the keys of tile and blank are
// XORed out of their old cells and into their new ones. h must be the hash of the
// board before the move.
func (z *Zobrist) Move(h uint64, from, to int, tile uint8) uint64 {
	k := z.keys
	f, t := from*z.tiles, to*z.tiles
	return h ^ k[f+int(tile)] ^ k[t] ^ k[f] ^ k[t+int(tile)]
}
