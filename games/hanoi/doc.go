// Package hanoi holds the rules of the Towers of Hanoi with k pegs (3 ≤ k ≤ 6) and
// n disks, its notation, the symmetry classes of its states and the three index schemes
// that number them.
//
// # Rules and notation
//
// Disk 1 is the smallest, disk n the largest. A state is a string of n peg digits, disk 1
// first: "0120" has disk 1 on peg 0, disk 2 on peg 1, disk 3 on peg 2 and disk 4 on
// peg 0. Every peg holds its disks in size order, so the digits alone fix the state. A move
// takes the top (smallest) disk of a peg and puts it on an empty peg or on a larger top
// disk. The goal is every disk on the last peg, k−1. [Parse] reads the notation (spaces,
// tabs and commas between digits are allowed and dropped), [Format] writes it.
//
// # Symmetry classes
//
// Relabelling the k−1 pegs other than the goal peg maps moves to moves and the goal to
// itself, so it keeps remoteness: the states of a class are all equally far from the goal
// and a table stores each class once. The canonical member of a class, [Canonical], names
// the non-goal pegs 0, 1, … in the order in which they first appear when the disks are
// read from the largest down (so peg 0 holds the largest disk not on the goal peg); empty
// non-goal pegs take the remaining labels. Read from the largest disk down, a canonical
// state is a restricted growth string over the non-goal pegs: a disk is on the goal peg,
// on a non-goal peg already seen, or on the smallest unused one. The number of classes,
// [ClassCount], is the Burnside count
//
//	Σ_{m=0..n} C(n, m) · Σ_{j=0..k−1} S(n−m, j)
//
// (m disks on the goal peg, the others split into at most k−1 unlabelled non-empty pegs;
// S is the Stirling number of the second kind): (3^n+1)/2 for 3 pegs and
// (4^n+3·2^n+2)/6 for 4 pegs.
//
// # Index schemes
//
// All three schemes read the disks from the largest down, the largest disk being the most
// significant digit, so a move of a small disk changes a slot only a little and a search
// touches nearby memory.
//
//   - "classes" (the default) ranks the canonical states compactly: digit 0 is the goal
//     peg and digit j+1 the canonical non-goal peg j, and a canonical state's slot is its
//     position among all canonical states in this digit order. A table
//     count[r][u] (completions of r more disks once u non-goal pegs are in use) gives
//     rank and unrank in O(n). No holes: Slots = ClassCount.
//   - "seed" reads the canonical state as an n-digit base-k number with the same digits
//     (goal peg = 0, canonical non-goal peg j = j+1). k^n slots; a slot whose digits are
//     no restricted growth string is a hole (k^n − ClassCount of them).
//   - "plain" reads the state itself, without symmetry, as an n-digit base-k number whose
//     digits are the peg labels (disk n most significant): k^n slots, no holes, and the
//     goal is slot k^n − 1.
//
// A [Space] is the game plus one scheme. It satisfies the builder's Space (batched
// expansion with no allocation per state) and the lookup's Domain (states in the user's
// own peg labels) structurally.
//
// # Remoteness
//
// With 3 pegs every state's remoteness has a closed form, [ThreePegDistance]: taking the
// disks from the largest down with the goal peg as target, a disk not on the target adds
// 2^(d−1) moves and makes the third peg the target for the smaller disks. The 3-peg
// bound 2^n − 1 bounds the remoteness for every k ≥ 3. With 4 pegs the standard start (all
// disks on peg 0) is the Frame–Stewart number of moves away.
package hanoi
