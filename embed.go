// Package sgdplan holds the data the sgdplan command carries inside its
// binary: the small real traces and tables under testdata/ that the demo runs
// on. The tool itself lives in cmd/sgdplan and the packages beside it.
package sgdplan

import "embed"

// TestData is the repository's testdata/ folder, embedded so that
// "sgdplan demo" works from any directory.
//
//go:embed testdata
var TestData embed.FS
