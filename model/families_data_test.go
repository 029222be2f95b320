package model

import (
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// famReadCSV reads a CSV file with a header into rows keyed by column name.
func famReadCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("missing %s: %v", path, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		t.Fatalf("%s: header: %v", path, err)
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m := make(map[string]string, len(head))
		for i, h := range head {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func famFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q: %v", s, err)
	}
	return v
}

// TestSyncPSStragglersAlibaba checks SyncPS's straggler term against real
// per-worker mini-batch times of four 10-worker jobs (Alibaba PAI,
// cluster-trace-gpu-v2020): from the job's pooled mean z and coefficient of
// variation CV of all worker-iterations, z (1 + CV e_10) should match the
// measured mean over iterations of the slowest worker's time, which a model
// without stragglers (z alone) underestimates by about 10%.
func TestSyncPSStragglersAlibaba(t *testing.T) {
	dir := filepath.Join(testenv.DataDir(t), "alibaba-pai-minibatch-time-v2020")
	// Job 4 fluctuates (CV 0.9, far from normal): a looser bound.
	tol := map[int]float64{1: 0.02, 2: 0.02, 3: 0.02, 4: 0.10}
	for job := 1; job <= 4; job++ {
		rows := famReadCSV(t, filepath.Join(dir, "job_"+strconv.Itoa(job)+"_norm.csv"))
		iters := map[string][]float64{}
		for _, r := range rows {
			iters[r["time"]] = append(iters[r["time"]], famFloat(t, r["batch_time_norm"]))
		}
		var all []float64
		var sumMax float64
		n := 0
		for _, v := range iters {
			if len(v) != 10 {
				continue // iterations with missing workers
			}
			all = append(all, v...)
			sumMax += slices.Max(v)
			n++
		}
		var mean, ss float64
		for _, x := range all {
			mean += x
		}
		mean /= float64(len(all))
		for _, x := range all {
			ss += (x - mean) * (x - mean)
		}
		cv := math.Sqrt(ss/float64(len(all))) / mean
		measured := sumMax / float64(n)
		m := SyncPS{Compute0: mean, ComputeCV: cv}
		pred := m.StepTime(Config{Workers: 10})
		errModel := pred/measured - 1
		errMean := mean/measured - 1
		t.Logf("job %d: %d iterations, mean %.1f, CV %.3f: mean slowest %.1f, SyncPS %.1f (%+.1f%%), no-straggler %.1f (%+.1f%%)",
			job, n, mean, cv, measured, pred, 100*errModel, mean, 100*errMean)
		if math.Abs(errModel) > tol[job] {
			t.Errorf("job %d: SyncPS straggler term off by %+.1f%%, want within %.0f%%", job, 100*errModel, 100*tol[job])
		}
		if math.Abs(errModel) > math.Abs(errMean)/2 {
			t.Errorf("job %d: SyncPS error %+.1f%% not half the no-straggler error %+.1f%%", job, 100*errModel, 100*errMean)
		}
	}
}

// polluxRow is one measured configuration of the Pollux profiles.
type polluxRow struct {
	nodes, replicas int
	batch, step     float64
	sync            float64
}

// famLinFit returns the least-squares intercept and slope of y on x (slope
// 0 when x does not vary).
func famLinFit(x, y []float64) (a, b float64) {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx float64
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		sxy += (x[i] - mx) * (y[i] - my)
	}
	if sxx == 0 {
		return my, 0
	}
	return my - sxy/sxx*mx, sxy / sxx
}

// TestPolluxExtrapolates checks the Pollux form on the Pollux authors' own
// measurements (AWS, 4 T4 GPUs per node): the parameters estimated from the
// placements of up to 4 nodes (T_grad from one-replica step times, the two
// T_sync lines from the measured sync times, gamma by a grid on the log step
// times of the multi-replica rows) predict the step times of the separate
// scalability runs on 6 to 16 nodes and up to 64 replicas. Median relative
// errors are 5-14% per job (docs/models.md).
func TestPolluxExtrapolates(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 5,000 rows of profiles")
	}
	dir := filepath.Join(testenv.DataDir(t), "pollux-osdi21", "traces")
	for _, job := range []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"} {
		var train []polluxRow
		for _, r := range famReadCSV(t, filepath.Join(dir, job, "placements.csv")) {
			p := r["placement"]
			k := 0
			for _, d := range p {
				k += int(d - '0')
			}
			train = append(train, polluxRow{len(p), k, famFloat(t, r["local_bsz"]), famFloat(t, r["step_time"]), famFloat(t, r["sync_time"])})
		}
		var gx, gy, lx, ly, nx, ny []float64
		for _, r := range train {
			switch {
			case r.replicas == 1:
				gx, gy = append(gx, r.batch), append(gy, r.step)
			case r.nodes == 1:
				lx, ly = append(lx, float64(r.replicas-2)), append(ly, r.sync)
			default:
				nx, ny = append(nx, float64(r.replicas-2)), append(ny, r.sync)
			}
		}
		m := Pollux{Gamma: 1}
		m.AlphaGrad, m.BetaGrad = famLinFit(gx, gy)
		m.AlphaLocal, m.BetaLocal = famLinFit(lx, ly)
		m.AlphaNode, m.BetaNode = famLinFit(nx, ny)
		for i, v := range m.Params() {
			m = m.WithParams(slices.Replace(m.Params(), i, i+1, max(v, 0))) // NNLS-like clip
		}
		bestErr := math.Inf(1)
		for g := 1.0; g <= 10; g += 0.05 {
			m2 := m
			m2.Gamma = g
			var e float64
			for _, r := range train {
				if r.replicas > 1 {
					d := math.Log(m2.StepTime(Config{Workers: r.replicas, Nodes: r.nodes, Batch: r.batch}) / r.step)
					e += d * d
				}
			}
			if e < bestErr {
				bestErr, m.Gamma = e, g
			}
		}
		var rel []float64
		for _, r := range famReadCSV(t, filepath.Join(dir, job, "scalability.csv")) {
			c := Config{Workers: int(famFloat(t, r["num_replicas"])), Nodes: int(famFloat(t, r["num_nodes"])), Batch: famFloat(t, r["local_bsz"])}
			rel = append(rel, math.Abs(m.StepTime(c)/famFloat(t, r["step_time"])-1))
		}
		slices.Sort(rel)
		med, p90 := rel[len(rel)/2], rel[len(rel)*9/10]
		t.Logf("%-11s gamma %.2f: %d scalability runs, median |error| %.1f%%, 90th percentile %.1f%%", job, m.Gamma, len(rel), 100*med, 100*p90)
		if med > 0.20 {
			t.Errorf("%s: median extrapolation error %.1f%%, want under 20%%", job, 100*med)
		}
	}
}
