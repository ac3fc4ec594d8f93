// Package builder holds what the engines that fill a table share with their callers: the
// value array (Values: one remoteness per slot, workers writing their own bytes without
// atomics) and the progress snapshot of a level-synchronous search. The engines are
// packages of their own, each knowing a space only through its small interfaces, never
// a concrete game:
//
//   - builder/bfs: the level-synchronous parallel breadth-first search (puzzles);
//   - builder/zeroone: the 0-1 breadth-first search that fills pattern databases;
//   - builder/retro: retrograde analysis of a unit of a two-player game;
//   - builder/levellog: the level log, the checkpoint that lets an interrupted BFS resume.
package builder
