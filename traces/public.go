package traces

import (
	"fmt"
	"github.com/sgdplan/sgdplan/internal/limits"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The public measurement tables of ../shared/data that the validation
// protocol (shared docs/validation-protocol.md) scores, read into Throughput
// rows. Each row's Model is the series key the protocol groups by, so a
// caller fits and scores per distinct Model:
//
//   - pollux-osdi21: Model = the job (bert, cifar10, ...). One row per line of
//     traces/<model>/placements.csv and scalability.csv: Workers = replicas
//     (sum of the placement digits), Nodes = nodes (number of digits),
//     Batch = local_bsz, GlobalBatch = Workers x Batch, StepsPerS =
//     1/step_time (the protocol's unit is step_time = 1/StepsPerS),
//     SamplesPerS = GlobalBatch/step_time, Mode allreduce, PS 0. Run names
//     the row: "placement=1224 bsz=4" or "nodes=6 replicas=6 bsz=4", and
//     PolluxPlacement recovers the per-node GPU counts. A model folder that
//     is absent (as in an excerpt) is a warning; each present one needs both
//     files.
//   - dl2-mxnet-ps-speed: Model = model. Workers = num_workers, PS = num_ps,
//     GlobalBatch = tot_batch_size (split among the workers), SamplesPerS =
//     speed_sum (job samples/s, per the dataset README), Mode from sync_mode:
//     dist_sync -> sync, dist_async -> async (Run suffixed " async"), other
//     text an error at the cell (the shared file holds dist_sync only).
//     Rows with speed 0 (9 failed runs in the file) are skipped with a
//     warning.
//   - elasticflow-asplos23: Model = the file name (bert, gpt2, ...), one row
//     per non-empty cell of throughputs_A100_raw/<model>.csv: Workers = GPU
//     count, GlobalBatch = global_batch_size (strong scaling), StepsPerS =
//     the cell (iterations/s), SamplesPerS = StepsPerS x GlobalBatch, Mode
//     allreduce, Nodes = ceil(GPUs/8) (the scheduler's 8 GPUs per node). A
//     series is (Model, GlobalBatch). Cells that are 0 (not run) are skipped
//     with a warning; empty cells are skipped silently; an absent model file
//     is a warning.
//   - tf-cnn-benchmarks-2017: Model = "platform/model/batch/variable_update/
//     data" (data = synthetic or real, which the protocol's key leaves out but
//     which would otherwise give two rows per GPU count), where a
//     parameter_server variable_update carries its device
//     ("parameter_server(cpu)"). Workers = num_gpus, Batch =
//     batch_size_per_gpu, SamplesPerS = images_per_sec, Repeats = 5.
//     Mode: replicated -> allreduce (PS 0); parameter_server -> sync with PS 1
//     (one parameter device); distributed_replicated -> sync with PS = Nodes =
//     ceil(GPUs/8) instances, except at 8 instances InceptionV3 (6 PS),
//     ResNet-50 batch 32 (4 PS) and ResNet-152 (4 PS), per the benchmark page.
//   - gavel-osdi20: Model = "job_type/gpu_type" from
//     simulation_throughputs_isolated.csv, with gpu_type suffixed
//     "_unconsolidated" when consolidated is 0 (as in Gavel's JSON), so
//     consolidated and spread jobs are separate series. Workers = scale_factor, Batch = batch_size (0 when absent),
//     StepsPerS = isolated_steps_per_sec / scale_factor (Gavel's figure is
//     the sum of the workers' steps: fit.GavelReading; since 2026-12-05,
//     before which it was written whole and fit called 107 of the 144
//     series superlinear), SamplesPerS NaN (whether the batch
//     is per GPU is not documented), Mode allreduce, Nodes = 1 when
//     consolidated, 0 (unknown) otherwise. Zero throughputs are skipped with
//     a warning.
//   - shockwave-nsdi23: tacc_throughputs_isolated.csv, Gavel's table as
//     Shockwave re-profiled it, read as gavel-osdi20; only the rows with
//     differs_from_gavel_physical_cluster_throughputs = 1 (the V100 rows
//     measured again), since the others repeat Gavel's measurements.
//
// Absent values follow types.go: NaN for floats, 0 for counts.

// datasetLoaders maps each public dataset name to its reader.
var datasetLoaders = map[string]func(p pubFiles) ([]Throughput, []error, error){
	"pollux-osdi21":          loadPollux,
	"dl2-mxnet-ps-speed":     loadDL2,
	"elasticflow-asplos23":   loadElasticFlow,
	"tf-cnn-benchmarks-2017": loadTFCNN,
	"gavel-osdi20":           loadGavel,
	"shockwave-nsdi23":       loadShockwave,
}

// Datasets lists the names LoadDataset accepts, sorted.
func Datasets() []string {
	names := make([]string, 0, len(datasetLoaders))
	for n := range datasetLoaders {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LoadDataset reads the public dataset name (one of Datasets) from dir, which
// is the dataset's own folder (../shared/data/pollux-osdi21) or the data root
// that holds it (../shared/data). It returns the rows in file order, warnings
// for values it skipped, and an error (a *ParseError with file, line and
// column for bad content) when the data cannot be read.
func LoadDataset(name, dir string) ([]Throughput, []error, error) {
	load, ok := datasetLoaders[name]
	if !ok {
		return nil, nil, fmt.Errorf("traces: unknown dataset %q (known: %s)", name, strings.Join(Datasets(), ", "))
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		// (it failed as "FILE/NAME.csv: not a directory")
		return nil, nil, fmt.Errorf("traces: %s: a file: the %s dataset is read from its folder (%s) or from the data root that holds that folder, not from one of its files", dir, name, filepath.Dir(dir))
	}
	if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
		dir = filepath.Join(dir, name)
	}
	return load(pubFiles{fsys: os.DirFS(dir), dir: dir})
}

// PolluxPlacement returns the GPUs per node of a pollux-osdi21 row from its
// Run ("placement=1224 ..." gives [1 2 2 4]; "nodes=6 replicas=12 ..." gives
// 6 nodes of 2), or nil when Run is not of that form. Scalability rows
// that do not divide evenly put the extra GPUs on the first nodes.
func PolluxPlacement(r Throughput) []int {
	f := strings.Fields(r.Run)
	if len(f) == 0 {
		return nil
	}
	if p, ok := strings.CutPrefix(f[0], "placement="); ok {
		out := make([]int, 0, len(p))
		for _, c := range p {
			if c < '1' || c > '9' {
				return nil
			}
			out = append(out, int(c-'0'))
		}
		return out
	}
	if r.Nodes <= 0 || r.Workers < r.Nodes || !strings.HasPrefix(f[0], "nodes=") {
		return nil
	}
	out := make([]int, r.Nodes)
	for i := range out {
		out[i] = r.Workers / r.Nodes
		if i < r.Workers%r.Nodes {
			out[i]++
		}
	}
	return out
}

func newThroughput() Throughput {
	return Throughput{StepsPerS: math.NaN(), SamplesPerS: math.NaN(), Std: math.NaN()}
}

// polluxModels are the six jobs of the Pollux artifact.
var polluxModels = []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"}

func loadPollux(dir pubFiles) ([]Throughput, []error, error) {
	var out []Throughput
	var warns []error
	for _, m := range polluxModels {
		if !dir.exists("traces/" + m) {
			warns = append(warns, fmt.Errorf("traces: %s: no %s folder; model skipped", dir.name("traces"), m))
			continue
		}
		rows, err := readPolluxPlacements(dir, "traces/"+m+"/placements.csv", m)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, rows...)
		rows, err = readPolluxScalability(dir, "traces/"+m+"/scalability.csv", m)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, rows...)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("traces: %s: no pollux-osdi21 model folder (expected traces/<model>/placements.csv for one of %s)", dir.dir, strings.Join(polluxModels, ", "))
	}
	return out, warns, nil
}

func polluxRow(model string, nodes, replicas, bsz int, stepTime float64, run string) Throughput {
	r := newThroughput()
	r.Model = model
	r.Mode = "allreduce"
	r.Nodes = nodes
	r.Workers = replicas
	r.Batch = bsz
	r.GlobalBatch = replicas * bsz
	r.StepsPerS = 1 / stepTime
	r.SamplesPerS = float64(r.GlobalBatch) / stepTime
	r.Run = run
	return r
}

func readPolluxPlacements(dir pubFiles, rel, model string) ([]Throughput, error) {
	t, f, err := dir.open(rel, "placement", "local_bsz", "step_time")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Throughput
	err = t.each(func() error {
		pl := t.str("placement")
		if pl == "" || strings.Trim(pl, "123456789") != "" {
			return t.errAt("placement", "column placement: expected GPUs per node as digits 1-9 (e.g. 1224), got %q", pl)
		}
		replicas := 0
		for _, c := range pl {
			replicas += int(c - '0')
		}
		r, err := polluxRowAt(t, model, len(pl), replicas, "placement="+pl)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func readPolluxScalability(dir pubFiles, rel, model string) ([]Throughput, error) {
	t, f, err := dir.open(rel, "num_nodes", "num_replicas", "local_bsz", "step_time")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Throughput
	err = t.each(func() error {
		nodes, err := t.integer("num_nodes", 1)
		if err != nil {
			return err
		}
		replicas, err := t.integer("num_replicas", 1)
		if err != nil {
			return err
		}
		if replicas < nodes {
			return t.errAt("num_replicas", "column num_replicas: %d replicas on %d nodes: expected at least one per node", replicas, nodes)
		}
		r, err := polluxRowAt(t, model, nodes, replicas, fmt.Sprintf("nodes=%d replicas=%d", nodes, replicas))
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// polluxRowAt reads local_bsz and step_time of the current row of a Pollux
// table into a row of nodes and replicas; run gets " bsz=<local_bsz>".
func polluxRowAt(t *pubTable, model string, nodes, replicas int, run string) (Throughput, error) {
	bsz, err := t.integer("local_bsz", 1)
	if err != nil {
		return Throughput{}, err
	}
	st, err := t.positive("step_time")
	if err != nil {
		return Throughput{}, err
	}
	r := polluxRow(model, nodes, replicas, bsz, st, fmt.Sprintf("%s bsz=%d", run, bsz))
	if math.IsInf(r.SamplesPerS, 0) || math.IsInf(r.StepsPerS, 0) {
		return Throughput{}, t.errAt("step_time", "column step_time: %v s is too small to give a finite rate", st)
	}
	if err := t.inRange(&r, "step_time"); err != nil {
		return Throughput{}, err
	}
	return r, nil
}

func loadDL2(dir pubFiles) ([]Throughput, []error, error) {
	// sync_mode is a part of every DL2 row (config_speed.txt's tuples);
	// it was not read, and a dist_async row was written as mode sync
	t, f, err := dir.open("ps_worker_speed.csv", "model", "sync_mode", "num_ps", "num_workers", "speed_sum", "tot_batch_size")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Throughput
	var warns []error
	err = t.each(func() error {
		var err error
		r := newThroughput()
		r.Model = t.str("model")
		if r.Model == "" {
			return t.errAt("model", "column model: expected a model name, got an empty field")
		}
		if err := t.names("model"); err != nil {
			return err
		}
		// MXNet's kvstore types of a parameter-server job: dist_sync
		// waits for every worker's gradient, dist_async applies each as
		// it comes (an async run is apart from a sync one of the same
		// counts in its run name; the shared file holds dist_sync only)
		switch m := t.str("sync_mode"); m {
		case "dist_sync":
			r.Mode = "sync"
		case "dist_async":
			r.Mode = "async"
		default:
			return t.errAt("sync_mode", "column sync_mode: expected dist_sync (synchronous parameter servers) or dist_async (asynchronous), got %q", m)
		}
		if r.PS, err = t.integer("num_ps", 1); err != nil {
			return err
		}
		if r.Workers, err = t.integer("num_workers", 1); err != nil {
			return err
		}
		if r.GlobalBatch, err = t.integer("tot_batch_size", 1); err != nil {
			return err
		}
		if r.GlobalBatch < r.Workers {
			// (as elasticflow's cells: convert read the row, then the
			// throughput.csv writer refused it, naming its own row)
			return t.errAt("tot_batch_size", "column tot_batch_size: %d samples a step on %d workers: each worker takes at least one sample a step (expected a total batch of at least %d)", r.GlobalBatch, r.Workers, r.Workers)
		}
		v, skip, err := t.measured("speed_sum", "samples/s", "(a failed run) read as not measured")
		if err != nil || skip != nil {
			warns = appendNonNil(warns, skip)
			return err
		}
		r.SamplesPerS = v
		if err := t.inRange(&r, "speed_sum"); err != nil {
			return err
		}
		r.Run = fmt.Sprintf("ps=%d workers=%d", r.PS, r.Workers)
		if r.Mode == "async" {
			r.Run += " async"
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, warns, nil
}

// appendNonNil appends err to errs unless it is nil.
func appendNonNil(errs []error, err error) []error {
	if err == nil {
		return errs
	}
	return append(errs, err)
}

// elasticFlowModels are the files of throughputs_A100_raw.
var elasticFlowModels = []string{"bert", "deepspeech2", "gpt2", "inception3", "resnet50", "resnet50_cifar10", "vgg16"}

func loadElasticFlow(dir pubFiles) ([]Throughput, []error, error) {
	var out []Throughput
	var warns []error
	missing := 0
	for _, m := range elasticFlowModels {
		rel := "throughputs_A100_raw/" + m + ".csv"
		if !dir.exists(rel) {
			warns = append(warns, fmt.Errorf("traces: %s: absent; model skipped", dir.name(rel)))
			missing++
			continue
		}
		rows, w, err := readElasticFlowWide(dir, rel, m)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, rows...)
		warns = append(warns, w...)
	}
	if missing == len(elasticFlowModels) {
		return nil, nil, fmt.Errorf("traces: %s: no elasticflow-asplos23 table (expected throughputs_A100_raw/<model>.csv for one of %s)", dir.dir, strings.Join(elasticFlowModels, ", "))
	}
	return out, warns, nil
}

// readElasticFlowWide reads one wide ElasticFlow table: global_batch_size,
// then one column per GPU count.
func readElasticFlowWide(dir pubFiles, rel, model string) ([]Throughput, []error, error) {
	path := dir.name(rel)
	t, f, err := dir.open(rel, "global_batch_size")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	type gcol struct {
		name string
		gpus int
	}
	var cols []gcol
	seen := map[int]int{} // GPU count -> its column, 1-based
	for i, h := range t.head {
		if h == "global_batch_size" {
			continue
		}
		line, pos := t.r.FieldPos(i) // the header is the last record read
		g, err := strconv.Atoi(h)
		if err != nil || g < 1 {
			return nil, nil, &ParseError{File: path, Line: line, Column: pos, Msg: fmt.Sprintf("column %q: expected a GPU count as the header of each throughput column", h)}
		}
		if j, dup := seen[g]; dup {
			return nil, nil, &ParseError{File: path, Line: line, Column: pos, Msg: fmt.Sprintf("column %q: GPU count %d repeats field %d of the header (expected each GPU count once)", h, g, j)}
		}
		seen[g] = i + 1
		cols = append(cols, gcol{h, g})
	}
	var out []Throughput
	var warns []error
	err = t.each(func() error {
		gb, err := t.integer("global_batch_size", 1)
		if err != nil {
			return err
		}
		for _, c := range cols {
			if t.str(c.name) == "" {
				continue
			}
			v, skip, err := t.measured(c.name, "iterations/s", "read as not measured")
			if err != nil {
				return err
			}
			if skip != nil {
				warns = append(warns, skip)
				continue
			}
			if gb < c.gpus {
				// (a row the throughput.csv writer refuses: convert
				// failed after reading it, found by FuzzPublicTables)
				return t.errAt(c.name, "column %s: a rate at global batch %d on %d GPUs: each GPU takes at least one sample a step (expected a global batch of at least %d, or the cell empty)", c.name, gb, c.gpus, c.gpus)
			}
			r := newThroughput()
			r.Model = model
			r.Mode = "allreduce"
			r.Workers = c.gpus
			r.Nodes = (c.gpus + 7) / 8
			r.GlobalBatch = gb
			r.StepsPerS = v
			r.SamplesPerS = v * float64(gb)
			if math.IsInf(r.SamplesPerS, 0) {
				return t.errAt(c.name, "column %s: %v iterations/s x global batch %d overflows", c.name, v, gb)
			}
			if err := t.inRange(&r, c.name); err != nil {
				return err
			}
			r.Run = fmt.Sprintf("gpus=%d global_batch=%d", c.gpus, gb)
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, warns, nil
}

func loadTFCNN(dir pubFiles) ([]Throughput, []error, error) {
	t, f, err := dir.open("tf_cnn_benchmarks_may2017.csv", "platform", "num_gpus", "model", "batch_size_per_gpu", "data", "variable_update", "images_per_sec")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Throughput
	err = t.each(func() error {
		var err error
		r := newThroughput()
		if r.Workers, err = t.integer("num_gpus", 1); err != nil {
			return err
		}
		if r.Batch, err = t.integer("batch_size_per_gpu", 1); err != nil {
			return err
		}
		if r.SamplesPerS, err = t.positive("images_per_sec"); err != nil {
			return err
		}
		if err := t.inRange(&r, "images_per_sec"); err != nil {
			return err
		}
		r.Repeats = 5
		// (the series' model name holds them)
		if err := t.names("platform", "model", "data", "variable_update", "local_parameter_device"); err != nil {
			return err
		}
		platform, model, data := t.str("platform"), t.str("model"), t.str("data")
		vu := t.str("variable_update")
		r.Nodes = 1
		switch {
		case strings.HasPrefix(vu, "replicated"):
			r.Mode = "allreduce"
		case vu == "parameter_server":
			r.Mode = "sync"
			r.PS = 1
			if dev := t.str("local_parameter_device"); dev != "" && dev != "n/a" {
				vu += "(" + dev + ")"
			}
		case strings.HasPrefix(vu, "distributed_replicated"):
			r.Mode = "sync"
			r.Nodes = (r.Workers + 7) / 8
			r.PS = r.Nodes
			if r.Nodes == 8 {
				switch {
				case model == "InceptionV3":
					r.PS = 6
				case model == "ResNet-50" && r.Batch == 32, model == "ResNet-152":
					r.PS = 4
				}
			}
			vu = "distributed_replicated"
		default:
			return t.errAt("variable_update", "column variable_update: expected parameter_server, replicated (...) or distributed_replicated (...), got %q", vu)
		}
		r.Model = fmt.Sprintf("%s/%s/%d/%s/%s", platform, model, r.Batch, vu, data)
		r.Run = fmt.Sprintf("gpus=%d", r.Workers)
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, nil, nil
}

func loadGavel(dir pubFiles) ([]Throughput, []error, error) {
	return gavelTable(dir, "simulation_throughputs_isolated.csv", "")
}

// loadShockwave reads Shockwave's re-profiled Gavel throughputs: the rows
// of tacc_throughputs_isolated.csv flagged as differing from Gavel's
// physical-cluster file (the V100 rows Shockwave measured again); the
// others repeat Gavel's measurements and are left out.
func loadShockwave(dir pubFiles) ([]Throughput, []error, error) {
	return gavelTable(dir, "tacc_throughputs_isolated.csv", "differs_from_gavel_physical_cluster_throughputs")
}

// gavelTable reads a Gavel-style isolated-throughput table (the
// gavel-osdi20 format in the comment of datasetLoaders); with keep, only
// the rows whose column keep is 1.
func gavelTable(dir pubFiles, file, keep string) ([]Throughput, []error, error) {
	cols := []string{"gpu_type", "consolidated", "job_type", "scale_factor", "isolated_steps_per_sec"}
	if keep != "" {
		cols = append(cols, keep)
	}
	t, f, err := dir.open(file, cols...)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Throughput
	var warns []error
	err = t.each(func() error {
		var err error
		// a row not kept is read and checked all the same (garbage in
		// it went through without a word), then left out
		drop := false
		if keep != "" {
			k, err := t.integer(keep, 0)
			if err != nil {
				return err
			}
			if k > 1 {
				return t.errAt(keep, "column %s: expected 0 or 1, got %d", keep, k)
			}
			drop = k == 0
		}
		r := newThroughput()
		gpu, job := t.str("gpu_type"), t.str("job_type")
		if gpu == "" || job == "" {
			return t.errAt("job_type", "expected a gpu_type and a job_type, got %q and %q", gpu, job)
		}
		if err := t.names("gpu_type", "job_type"); err != nil { // (the model's name)
			return err
		}
		if r.Workers, err = t.integer("scale_factor", 1); err != nil {
			return err
		}
		if t.str("batch_size") != "" {
			if r.Batch, err = t.integer("batch_size", 1); err != nil {
				return err
			}
		}
		cons, err := t.integer("consolidated", 0)
		if err != nil {
			return err
		}
		if cons > 1 {
			return t.errAt("consolidated", "column consolidated: expected 1 (one server) or 0 (spread over servers), got %d", cons)
		}
		if cons == 1 {
			r.Nodes = 1
		} else {
			gpu += "_unconsolidated"
		}
		v, skip, err := t.measured("isolated_steps_per_sec", "steps/s", "read as not measured")
		if err != nil || skip != nil {
			if !drop {
				warns = appendNonNil(warns, skip)
			}
			return err
		}
		// Gavel's steps/s of a multi-GPU job is the sum of its workers'
		// steps (fit.GavelReading: read as the job's synchronous steps,
		// all 56 jobs measured at 1 and 8 GPUs would do more than 8 times
		// one GPU's samples at 8, read as the sum 5 would); the job's own
		// steps/s is that over the GPUs.
		r.StepsPerS = v / float64(r.Workers)
		if r.StepsPerS < 1/limits.MaxTime {
			return t.errAt("isolated_steps_per_sec", "column isolated_steps_per_sec: %g steps/s summed over %d GPUs is %g job steps/s: expected at least %g (the canonical reader's range)", v, r.Workers, r.StepsPerS, 1/limits.MaxTime)
		}
		if err := t.inRange(&r, "isolated_steps_per_sec"); err != nil {
			return err
		}
		r.Mode = "allreduce"
		r.Model = job + "/" + gpu
		r.Run = fmt.Sprintf("gpus=%d", r.Workers)
		if !drop {
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, warns, nil
}
