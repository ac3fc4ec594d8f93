package tables

// SetDescentTreeNodes sets the cap of a descent step's look-ahead tree (1: a step of one
// move) and returns the function that restores it; for benchmarks and tests only.
func SetDescentTreeNodes(n int) (restore func()) {
	old := descentTreeNodes.Swap(int32(n))
	return func() { descentTreeNodes.Store(old) }
}
