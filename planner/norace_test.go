//go:build !race

package planner

// raceEnabled: the race detector is on (sync.Pool then drops what it is
// given now and then, and a pooled scratch allocates).
const raceEnabled = false
