package builder

import "testing"

// TestMapBytes: the byte path gives what Get does for every value, and wider arrays are
// left to Get.
func TestMapBytes(t *testing.T) {
	v, err := NewValues(300, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(300) {
		v.Set(i, i%256)
	}
	var tr [256]uint32
	for x := range tr {
		tr[x] = uint32(1000 + x)
	}
	dst := make([]uint32, 290)
	if !v.MapBytes(dst, 7, &tr) {
		t.Fatal("one-byte values not mapped")
	}
	for i, c := range dst {
		if want := uint32(1000 + v.Get(uint64(i)+7)); c != want {
			t.Fatalf("slot %d: %d, want %d", i+7, c, want)
		}
	}
	if err := v.Widen(); err != nil {
		t.Fatal(err)
	}
	if v.MapBytes(dst, 0, &tr) {
		t.Fatal("two-byte values mapped through a byte table")
	}
}
