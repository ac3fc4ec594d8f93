// Package solver finds optimal solutions of M×N sliding-tile puzzles: A* with an
// updatable priority queue, IDA* with inverse-move pruning and incremental heuristics,
// and the admissible heuristics both use — discrete, Hamming, Manhattan, additive pattern
// databases and their maximum with the lookup on the reflected board.
//
// # States
//
// A state is a board []uint8 on a *slide.Geometry: board[cell] = tile, 0 = the blank,
// cells row-major. The goal is one of slide's two goal boards (slide.Goal). A search
// checks its start board (slide.Geometry.Check) and its solvability
// (slide.Geometry.Solvable) first and returns an error wrapping ErrUnsolvable for a
// board of the other parity class; nothing else can fail except a cancelled context or
// a node limit.
//
// # Heuristics
//
// A Heuristic serves both searches through two faces (see its doc comment):
// Estimate(board) evaluates a board from scratch (A*, which jumps between unrelated
// boards), and NewTracker returns a Tracker that follows one search path move by move,
// Move(tile, from, to) returning the new estimate and Undo restoring the previous one
// (IDA*, which walks a single path depth-first). A tracker costs O(1) per move for
// Manhattan, Hamming and discrete, and one or two pattern lookups for a PDB: only the
// moved tile's group changes, and with reflection only the mirrored tile's group of the
// mirrored board. Every heuristic here is admissible. Discrete, Hamming and Manhattan
// are also consistent; pattern databases are not quite (a group's value is minimised
// over the blank's cell, so one move can change it by more than one — on the 8-puzzle
// with tiles 1–4/5–8, about one move in thirteen), and A* handles that by reopening a
// closed node when a shorter path to it turns up (Result.Reopened). IDA* needs only
// admissibility.
//
// Pattern databases enter through the small PatternSet interface. PDBSet (pdbset.go)
// loads a set of table files built by `tablesmith build pdb` into memory, packed, and
// satisfies it; OpenPDBSet checks the set's manifest (format.Manifest) and every file's
// metadata and codes as it loads them. The tests of this package carry an independently
// written in-memory builder (Patterns) as the
// oracle those files are checked against.
//
// # Searches
//
// AStar keeps every generated node in a table keyed by the packed board (a uint64 of
// 4-bit cells up to 16 cells, a [2]uint64 of 5-bit cells beyond) and the open list in a
// binary heap of node indices; each node records its heap position, so a shorter path to
// an open node lowers its priority by one sift-up, O(log n). Ties in f are broken towards
// the larger g — the node deeper on its path is closer to the goal by the heuristic's own
// account — which expands fewer nodes on the last f-layer. It reports the nodes expanded
// and the maximum heap length.
//
// IDAStar runs depth-first iterations with growing f-thresholds, never moves the blank
// straight back (inverse-move pruning) and updates the heuristic incrementally; it keeps
// the board in a fixed array and allocates nothing per node. Manhattan has its own
// inner loop (a table of distances, no interface call per node), every other heuristic
// runs through its Tracker.
//
// Node counts: Expanded is the number of nodes whose successors were generated;
// Generated is the number of successors generated (for IDA*: not counting the pruned
// inverse move, over all iterations), the number usually quoted for IDA*
// (Korf & Felner 2002).
package solver
