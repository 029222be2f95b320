// Command workloads runs every planner policy on windows of real job traces
// (Philly as processed by Pollux, Microsoft ITP, a Gavel Philly-VC trace) and
// prints mean and p99 response time and mean slowdown per policy with 95%
// intervals over seeds, as docs/planner.md reports them.
//
//	go run ./planner/internal/workloads -data ../shared/data -seeds 5
//
// Each job keeps its trace arrival and its size (seconds on one worker, see
// traces.LoadJobTrace) and rigid_workers = the GPUs it ran with. The traces
// carry no speedup curves, so each job gets s(k) = k^p with p drawn per job
// and seed from Uniform[PMin, PMax] (an assumption, stated in the output),
// and may use up to 4 x its trace GPUs. The cluster has the fewest whole
// workers that make the offered load, sum of sizes / (span x servers), at
// most -load (and at least the largest rigid request). Whole workers.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/traces"
)

type workload struct {
	name, format, path string
	from, count        int // window of jobs (after sorting by arrival)
}

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "data"), "folder of the shared data")
	seeds := flag.Int("seeds", 5, "seeds (p draws) per workload")
	load := flag.Float64("load", 0.7, "offered load that sizes the cluster")
	pmin := flag.Float64("pmin", 0.5, "smallest speedup exponent drawn")
	pmax := flag.Float64("pmax", 0.95, "largest speedup exponent drawn")
	count := flag.Int("jobs", 1000, "jobs per workload window")
	flag.Parse()
	wls := []workload{
		{"Philly (Pollux), jobs 40000..", "philly-pollux", "pollux-osdi21/traces/philly.csv", 40000, *count},
		{"Microsoft ITP cluster01", "itp", "microsoft-itp-elasticflow-traces/raw/cluster01.csv", 0, *count},
		{"Gavel Philly VC 0e4a51", "gavel-vc", "gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv", 0, *count},
	}
	fmt.Printf("Speedup curves: s(k) = k^p, p ~ Uniform[%g, %g] per job and seed; max_workers = 4 x trace GPUs; rigid_workers = trace GPUs; offered load %g; whole workers; %d seeds; 95%% t intervals over seeds.\n\n", *pmin, *pmax, *load, *seeds)
	for _, wl := range wls {
		if err := run(wl, *data, *seeds, *load, *pmin, *pmax); err != nil {
			fmt.Fprintln(os.Stderr, "workloads:", err)
			os.Exit(1)
		}
	}
}

func run(wl workload, data string, seeds int, load, pmin, pmax float64) error {
	tj, warns, err := traces.LoadJobTrace(wl.format, filepath.Join(data, wl.path))
	if err != nil {
		return err
	}
	if wl.from >= len(tj) {
		wl.from = 0
	}
	end := min(len(tj), wl.from+wl.count)
	tj = tj[wl.from:end]
	t0 := tj[0].Arrival
	work, maxRigid := 0.0, 1
	for _, j := range tj {
		work += j.Size
		maxRigid = max(maxRigid, j.RigidWorkers)
	}
	span := tj[len(tj)-1].Arrival - t0
	n := max(maxRigid, int(math.Ceil(work/(span*load))))
	fmt.Printf("### %s\n\n%d jobs (%s, %d rows skipped by the loader) over %.3g h, %d servers, mean size %.4g s on one worker\n\n",
		wl.name, len(tj), wl.path, len(warns), span/3600, n, work/float64(len(tj)))
	type acc struct{ mean, p99, sd []float64 }
	res := map[string]*acc{}
	start := time.Now()
	for s := 0; s < seeds; s++ {
		rng := rand.New(rand.NewPCG(uint64(s+1), 77))
		jobs := make([]planner.Job, len(tj))
		for i, j := range tj {
			g := max(1, j.RigidWorkers)
			jobs[i] = planner.Job{ID: j.Name, Arrival: j.Arrival - t0, Size: j.Size,
				Curve: planner.PowerLaw{P: pmin + (pmax-pmin)*rng.Float64()}, MaxWorkers: 4 * g, RigidWorkers: g}
		}
		for _, name := range planner.PolicyNames {
			pol, err := planner.NewPolicy(name, 0)
			if err != nil {
				return err
			}
			r, err := planner.Simulate(jobs, pol, planner.Settings{Servers: float64(n), Integer: true, Seed: uint64(s)})
			if err != nil {
				return fmt.Errorf("%s: %s: %w", wl.name, name, err)
			}
			a := res[name]
			if a == nil {
				a = &acc{}
				res[name] = a
			}
			a.mean = append(a.mean, r.MeanResponse)
			a.p99 = append(a.p99, r.P99Response)
			a.sd = append(a.sd, r.MeanSlowdown)
		}
	}
	fmt.Println("| policy | mean response (h) | p99 response (h) | mean slowdown |")
	fmt.Println("|---|---|---|---|")
	ci := func(x []float64, scale float64) string {
		m, lo, hi := planner.MeanCI(x, 0.95)
		return fmt.Sprintf("%.4g [%.4g, %.4g]", m/scale, lo/scale, hi/scale)
	}
	for _, name := range planner.PolicyNames {
		a := res[name]
		fmt.Printf("| %s | %s | %s | %s |\n", name, ci(a.mean, 3600), ci(a.p99, 3600), ci(a.sd, 1))
	}
	fmt.Printf("\n(%s of simulation)\n\n", strings.TrimSpace(time.Since(start).Round(time.Second).String()))
	return nil
}
