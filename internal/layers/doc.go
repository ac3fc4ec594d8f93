// Package layers holds no code: its test, TestImportLayers, states the import rules of
// the whole module in one place (docs/DESIGN.md, "Import rules"), by package path
// prefix, and fails naming the importer, the package it may not import and the chain of
// imports that leads there.
package layers
