package tables

// Test hooks for the external tests.

// SetForceRepack makes OpenPDBSet unpack and repack every code, as it did before files in
// the in-memory layout were copied whole.
func SetForceRepack(on bool) { forceRepack = on }

// PDBData returns group g's packed codes.
func PDBData(s *PDBSet, g int) []byte { return s.tabs[g].data }

// PackedCopies is the number of groups loaded by copying packed blocks so far.
func PackedCopies() int64 { return packedCopies.Load() }

// InPlaceCopies is the number of groups whose blocks were decoded straight into place.
func InPlaceCopies() int64 { return inPlaceCopies.Load() }

// SetRunBlocks sets the blocks a loading worker takes at a time and returns the old value.
func SetRunBlocks(n int) int {
	old := pdbRunBlocks
	pdbRunBlocks = n
	return old
}
