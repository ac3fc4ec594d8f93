package slide

// FloodUnit returns one worker's move generator that floods the blank's region slot by
// slot (what boards over 16 cells use), so that tests and benchmarks can hold the
// tables' against it on small boards.
func (s *PDBSpace) FloodUnit() func(dst, src []uint64) []uint64 {
	return s.newExpander().unitFlood
}
