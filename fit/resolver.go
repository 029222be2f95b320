package fit

import (
	"math"
	"path/filepath"
	"sync"

	"github.com/sgdplan/sgdplan/planner"
)

// ModelResolver is the planner.Resolver sgdplan plan reads a jobs file's
// model column with: a path relative to dir (the jobs file's folder) or
// absolute, each model.json loaded once (LoadModel) and refused when its
// speedup is not finite and > 0 at 2, 4, ..., 1024 workers (CheckSpeedup);
// loaded, when not nil, is called once with each path as resolved, before
// it is read. Safe for concurrent use.
func ModelResolver(dir string, loaded func(path string)) planner.Resolver {
	var mu sync.Mutex
	cache := map[string]planner.Speedup{}
	return func(p string) (planner.Speedup, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		mu.Lock()
		defer mu.Unlock()
		if s, ok := cache[p]; ok {
			return s, nil
		}
		if loaded != nil {
			loaded(p) // once per model file
		}
		m, err := LoadModel(p)
		if err != nil {
			return nil, err
		}
		if err := CheckSpeedup(p, m); err != nil {
			return nil, err
		}
		cache[p] = m
		return m, nil
	}
}

// CheckSpeedup refuses a speedup curve (of the model file path) that is
// not finite and > 0 at 2, 4, ..., 1024 workers: the policies would give
// its job no worker (a plan then failed with "the policy gives no job any
// worker", naming neither job nor file).
func CheckSpeedup(path string, c planner.Speedup) error {
	for k := 2; k <= 1024; k *= 2 {
		if v := c.Speedup(float64(k)); !(v > 0) || math.IsInf(v, 0) {
			return errorf("%s: the model's speedup at %d workers is %g: want a finite speedup > 0 (are its parameters degenerate?)", path, k, v)
		}
	}
	return nil
}
