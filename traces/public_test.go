package traces

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
	"unicode/utf8"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

func pubClose(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Abs(want)
}

// pubFind returns the rows of model whose Run is run.
func pubFind(rows []Throughput, model, run string) []Throughput {
	var out []Throughput
	for _, r := range rows {
		if r.Model == model && r.Run == run {
			out = append(out, r)
		}
	}
	return out
}

func TestDatasetsLists(t *testing.T) {
	want := "dl2-mxnet-ps-speed,elasticflow-asplos23,gavel-osdi20,pollux-osdi21,shockwave-nsdi23,tf-cnn-benchmarks-2017"
	if got := strings.Join(Datasets(), ","); got != want {
		t.Errorf("Datasets() = %s, want %s", got, want)
	}
	if _, _, err := LoadDataset("no-such", t.TempDir()); err == nil || !strings.Contains(err.Error(), "pollux-osdi21") {
		t.Errorf("unknown dataset: err %v, want one listing the known names", err)
	}
	// one of the dataset's files instead of its folder (it failed as
	// "FILE/tf_cnn_benchmarks_may2017.csv: not a directory")
	f := filepath.Join(t.TempDir(), "tf_cnn_benchmarks_may2017.csv")
	if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadDataset("tf-cnn-benchmarks-2017", f); err == nil || !strings.Contains(err.Error(), f+": a file: the tf-cnn-benchmarks-2017 dataset is read from its folder ("+filepath.Dir(f)+")") {
		t.Errorf("a file of the dataset: err %v", err)
	}
}

// TestLoadDatasetShared reads each real dataset and checks its row count and
// a few values read from the file by hand.
func TestLoadDatasetShared(t *testing.T) {
	data := testenv.DataDir(t)
	type want struct {
		model, run                        string
		workers, ps, nodes, batch, global int
		stepsPerS, samplesPerS            float64 // NaN: not checked to be a value, must be NaN
		mode                              string
	}
	cases := []struct {
		name  string
		rows  int
		warns int
		check []want
	}{
		{
			// placements 540+1183+754+864+1661+540 = 5542 rows,
			// scalability 180+329+198+288+458+108 = 1561 rows: 7103.
			name: "pollux-osdi21", rows: 7103,
			check: []want{
				// cifar10/placements.csv:288 "1224,32,0.16589028835296632": 4 nodes,
				// 1+2+2+4 = 9 replicas, global 9*32 = 288, 1/0.16589 = 6.0281 steps/s,
				// 288/0.16589 = 1736.1 samples/s.
				{"cifar10", "placement=1224 bsz=32", 9, 0, 4, 32, 288, 1 / 0.16589028835296632, 288 / 0.16589028835296632, "allreduce"},
				// imagenet/scalability.csv:2 "6,6,20,0.3874239444732666": global 120.
				{"imagenet", "nodes=6 replicas=6 bsz=20", 6, 0, 6, 20, 120, 1 / 0.3874239444732666, 120 / 0.3874239444732666, "allreduce"},
				// imagenet/scalability.csv:34 "16,20,20,0.5527561902999878": 16
				// nodes, 20 replicas (the row above has as many of each, and
				// reading num_nodes as the replicas went unseen): global
				// 20*20 = 400, 1/0.55276 = 1.8091 steps/s, 400/0.55276 =
				// 723.6 samples/s.
				{"imagenet", "nodes=16 replicas=20 bsz=20", 20, 0, 16, 20, 400, 1 / 0.5527561902999878, 400 / 0.5527561902999878, "allreduce"},
			},
		},
		{
			// 534 rows, 9 of them with speed_sum 0.0 (failed runs, e.g. line
			// 255 vgg-16 4 PS 8 workers): 525 rows and 9 warnings.
			name: "dl2-mxnet-ps-speed", rows: 525, warns: 9,
			check: []want{
				// ps_worker_speed.csv:30 "resnet-50,dist_sync,32,3,5,28.808,...".
				{"resnet-50", "ps=3 workers=5", 5, 3, 0, 0, 32, math.NaN(), 28.808, "sync"},
			},
		},
		{
			// 17 rows x 7 GPU counts = 119 cells, 1 empty (deepspeech2 bs32 at
			// 64 GPUs), 9 zeros (resnet50_cifar10 at 16, 32, 64 GPUs for its 3
			// batch sizes): 119 - 1 - 9 = 109 rows and 9 warnings.
			name: "elasticflow-asplos23", rows: 109, warns: 9,
			check: []want{
				// resnet50.csv:2 "64,...,21.265357623184627 (8 GPUs),..."; 64*21.2654 = 1361.0.
				{"resnet50", "gpus=8 global_batch=64", 8, 0, 1, 0, 64, 21.265357623184627, 64 * 21.265357623184627, "allreduce"},
				// same line, 64 GPUs: 20.969147690424624 it/s, ceil(64/8) = 8 nodes.
				{"resnet50", "gpus=64 global_batch=64", 64, 0, 8, 0, 64, 20.969147690424624, 64 * 20.969147690424624, "allreduce"},
				// same line, 1 and 4 GPUs: 6.8429775823889685 and
				// 18.298925886403232 it/s, on ceil(1/8) = ceil(4/8) = 1 node
				// (8 and 64 GPUs fill their nodes: 8/8 gave as many as
				// ceil(8/8) there, and none here).
				{"resnet50", "gpus=1 global_batch=64", 1, 0, 1, 0, 64, 6.8429775823889685, 64 * 6.8429775823889685, "allreduce"},
				{"resnet50", "gpus=4 global_batch=64", 4, 0, 1, 0, 64, 18.298925886403232, 64 * 18.298925886403232, "allreduce"},
			},
		},
		{
			name: "tf-cnn-benchmarks-2017", rows: 207,
			check: []want{
				// line 2: DGX-1 InceptionV3 64 synthetic parameter_server cpu 142.0.
				{"NVIDIA DGX-1/InceptionV3/64/parameter_server(cpu)/synthetic", "gpus=1", 1, 1, 1, 64, 0, math.NaN(), 142, "sync"},
				// line 196: distributed, 64 K80, InceptionV3 bs64, 1783.0 images/s,
				// 8 instances with 6 PS.
				{"Amazon EC2 distributed/InceptionV3/64/distributed_replicated/synthetic", "gpus=64", 64, 6, 8, 64, 0, math.NaN(), 1783, "sync"},
			},
		},
		{
			// 492 rows, 3 of them 0.0 (lines 62-64, k80 ResNet-50 bs128 on 2,
			// 4, 8 GPUs): 489 rows and 3 warnings.
			name: "gavel-osdi20", rows: 489, warns: 3,
			check: []want{
				// line 364: "v100,1,ResNet-18 (batch size 64),ResNet-18,64,2,74.13589143268821":
				// the workers' steps summed, the job's half of it
				{"ResNet-18 (batch size 64)/v100", "gpus=2", 2, 0, 1, 64, 0, 74.13589143268821 / 2, math.NaN(), "allreduce"},
				// line 2: "k80,1,A3C,A3C,,1,3.4387678290723933": no batch.
				{"A3C/k80", "gpus=1", 1, 0, 1, 0, 0, 3.4387678290723933, math.NaN(), "allreduce"},
			},
		},
		{
			// 88 re-profiled rows (differs_from_gavel_physical_cluster_throughputs
			// = 1) of 492, 6 of them 0 (lines 328, 329, 407-410): 82 rows
			// and 6 warnings.
			name: "shockwave-nsdi23", rows: 82, warns: 6,
			check: []want{
				// line 356: "v100,1,ResNet-18 (batch size 16),ResNet-18,16,2,84.82627579,1".
				{"ResNet-18 (batch size 16)/v100", "gpus=2", 2, 0, 1, 16, 0, 84.82627579 / 2, math.NaN(), "allreduce"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, warns, err := LoadDataset(c.name, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != c.rows {
				t.Errorf("%d rows, want %d", len(rows), c.rows)
			}
			if len(warns) != c.warns {
				t.Errorf("%d warnings, want %d: %v", len(warns), c.warns, warns)
			}
			for _, w := range warns {
				var pe *ParseError
				if !errors.As(w, &pe) || pe.Line == 0 || pe.Column == 0 {
					t.Errorf("warning not positioned: %v", w)
				}
			}
			// every (Model, Run) names one measurement
			seen := map[string]bool{}
			for _, r := range rows {
				k := r.Model + "|" + r.Run
				if seen[k] {
					t.Errorf("two rows for %s", k)
				}
				seen[k] = true
				if r.Workers < 1 || !(r.StepsPerS > 0 || r.SamplesPerS > 0) {
					t.Errorf("row %+v lacks workers or a rate", r)
				}
			}
			for _, w := range c.check {
				got := pubFind(rows, w.model, w.run)
				if len(got) != 1 {
					t.Errorf("%s %s: %d rows, want 1", w.model, w.run, len(got))
					continue
				}
				r := got[0]
				if r.Workers != w.workers || r.PS != w.ps || r.Nodes != w.nodes || r.Batch != w.batch || r.GlobalBatch != w.global || r.Mode != w.mode {
					t.Errorf("%s %s: got %+v, want %+v", w.model, w.run, r, w)
				}
				for _, f := range []struct {
					name      string
					got, want float64
				}{{"steps/s", r.StepsPerS, w.stepsPerS}, {"samples/s", r.SamplesPerS, w.samplesPerS}} {
					if math.IsNaN(f.want) != math.IsNaN(f.got) || !math.IsNaN(f.want) && !pubClose(f.got, f.want) {
						t.Errorf("%s %s: %s = %v, want %v", w.model, w.run, f.name, f.got, f.want)
					}
				}
			}
		})
	}
}

// TestLoadDatasetDataRootOrFolder: the data root and the dataset folder give
// the same rows.
func TestLoadDatasetDataRootOrFolder(t *testing.T) {
	data := testenv.DataDir(t)
	a, _, err := LoadDataset("dl2-mxnet-ps-speed", data)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := LoadDataset("dl2-mxnet-ps-speed", filepath.Join(data, "dl2-mxnet-ps-speed"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) == 0 || a[len(a)-1].Run != b[len(b)-1].Run || a[len(a)-1].SamplesPerS != b[len(b)-1].SamplesPerS {
		t.Errorf("data root gives %d rows, folder %d", len(a), len(b))
	}
}

func TestPolluxPlacement(t *testing.T) {
	cases := []struct {
		r    Throughput
		want string
	}{
		{Throughput{Run: "placement=1224 bsz=4", Workers: 9, Nodes: 4}, "[1 2 2 4]"},
		// 14 replicas on 4 nodes: 14/4 = 3 rest 2, so 4,4,3,3.
		{Throughput{Run: "nodes=4 replicas=14 bsz=4", Workers: 14, Nodes: 4}, "[4 4 3 3]"},
		{Throughput{Run: "gpus=8", Workers: 8, Nodes: 1}, "[]"},
		{Throughput{Run: "placement=1x2", Workers: 3, Nodes: 2}, "[]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(PolluxPlacement(c.r)); got != c.want {
			t.Errorf("PolluxPlacement(%q) = %s, want %s", c.r.Run, got, c.want)
		}
	}
}

// TestLoadDatasetMalformed builds bad copies of each dataset's files and
// checks the error names the file, line, column and what was expected.
func TestLoadDatasetMalformed(t *testing.T) {
	cases := []struct {
		name    string
		dataset string
		files   map[string]string
		want    string // substring of the error, after the file name
	}{
		{"pollux bad placement", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n12a,4,0.5,0.01\n",
		}, "placements.csv:3:1: column placement: expected GPUs per node"},
		{"pollux local_bsz whole only as a float64", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4.0000000000000001,0.5,0.01\n",
		}, "placements.csv:2:3: column local_bsz: expected an integer, got \"4.0000000000000001\""},
		{"pollux zero step time", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0,0.01\n",
		}, "placements.csv:2:5: column step_time: expected a number > 0"},
		{"pollux missing column", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,sync_time\n1,4,0.01\n",
		}, "placements.csv:1: missing required column \"step_time\""},
		{"pollux no model", "pollux-osdi21", map[string]string{}, "no pollux-osdi21 model folder"},
		{"pollux missing file", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n",
		}, "scalability.csv: no such file"},
		{"dl2 text in number", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg-16,dist_sync,32,1,x,3.5\n",
		}, "ps_worker_speed.csv:2:23: column num_workers: expected an integer, got \"x\""},
		{"dl2 NaN", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg-16,dist_sync,32,1,1,NaN\n",
		}, "ps_worker_speed.csv:2:25: column speed_sum: expected a finite number"},
		{"dl2 empty", "dl2-mxnet-ps-speed", map[string]string{"ps_worker_speed.csv": ""}, "empty file"},
		// sync_mode was not read: any text was written as mode sync
		{"dl2 unknown sync_mode", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nresnet-50,dist_sync,32,1,1,5\nresnet-50,banana,32,1,1,5\n",
		}, `ps_worker_speed.csv:3:11: column sync_mode: expected dist_sync (synchronous parameter servers) or dist_async (asynchronous), got "banana"`},
		{"dl2 empty sync_mode", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nresnet-50,,32,1,1,5\n",
		}, `ps_worker_speed.csv:2:11: column sync_mode: expected dist_sync (synchronous parameter servers) or dist_async (asynchronous), got ""`},
		{"dl2 no sync_mode", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,tot_batch_size,num_ps,num_workers,speed_sum\nresnet-50,32,1,1,5\n",
		}, `ps_worker_speed.csv:1: missing required column "sync_mode"`},
		{"tf-cnn bad quote", "tf-cnn-benchmarks-2017", map[string]string{
			"tf_cnn_benchmarks_may2017.csv": "platform,num_gpus,model,batch_size_per_gpu,data,variable_update,images_per_sec\nX,1,M,32,real,\"replicated,5\n",
		}, "tf_cnn_benchmarks_may2017.csv:2:"},
		{"tf-cnn unknown update", "tf-cnn-benchmarks-2017", map[string]string{
			"tf_cnn_benchmarks_may2017.csv": "platform,num_gpus,model,batch_size_per_gpu,data,variable_update,images_per_sec\nX,1,M,32,real,horovod,5\n",
		}, "tf_cnn_benchmarks_may2017.csv:2:15: column variable_update: expected parameter_server"},
		{"gavel negative", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nk80,1,A3C,A3C,,1,-3\n",
		}, "simulation_throughputs_isolated.csv:2:18: column isolated_steps_per_sec: expected steps/s >= 0"},
		{"shockwave bad flag", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec,differs_from_gavel_physical_cluster_throughputs\nv100,1,A,A,16,1,3,2\n",
		}, "tacc_throughputs_isolated.csv:2:19: column differs_from_gavel_physical_cluster_throughputs: expected 0 or 1, got 2"},
		// a row the converter leaves out (differs_from_gavel... 0) is still
		// checked: garbage in it went through, exit 0. "v100,1,A,A,16,1,"
		// is 16 bytes: the rate starts at 17.
		{"shockwave garbage in a row left out", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec,differs_from_gavel_physical_cluster_throughputs\nv100,1,A,A,16,1,3,1\nv100,1,A,A,16,1,banana,0\n",
		}, "tacc_throughputs_isolated.csv:3:17: column isolated_steps_per_sec: expected a finite number"},
		{"shockwave negative in a row left out", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec,differs_from_gavel_physical_cluster_throughputs\nv100,1,A,A,16,1,3,1\nv100,1,A,A,16,1,-5,0\n",
		}, "tacc_throughputs_isolated.csv:3:17: column isolated_steps_per_sec: expected steps/s >= 0"},
		{"shockwave no flag", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nv100,1,A,A,16,1,3\n",
		}, "differs_from_gavel_physical_cluster_throughputs"},
		{"elasticflow bad header", "elasticflow-asplos23", map[string]string{
			"throughputs_A100_raw/bert.csv": "global_batch_size,1,two\n64,1,2\n",
		}, "bert.csv:1:21: column \"two\": expected a GPU count"},
		// a GPU count twice would make a second row of it from the first column
		{"elasticflow repeated GPU count", "elasticflow-asplos23", map[string]string{
			"throughputs_A100_raw/bert.csv": "global_batch_size,1,01,4\n64,1,2,3\n",
		}, "bert.csv:1:21: column \"01\": GPU count 1 repeats field 2 of the header (expected each GPU count once)"},
		// any column name twice: which holds the values? (the first was used)
		{"elasticflow repeated column", "elasticflow-asplos23", map[string]string{
			"throughputs_A100_raw/bert.csv": "global_batch_size,1,1,4\n64,1,2,3\n",
		}, "bert.csv:1:21: column \"1\" repeats field 2 of the header: expected each column once"},
		// Gavel's steps/s is summed over the job's GPUs: 4e-12 over 8 is
		// 5e-13 job steps/s, below what the canonical reader takes (1e-12);
		// convert wrote it for its own reader to refuse. The value starts at
		// 18 ("k80,0,A3C,A3C,,8," is 17 bytes).
		{"gavel job rate under 1e-12", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nk80,0,A3C,A3C,,8,4e-12\n",
		}, "simulation_throughputs_isolated.csv:2:18: column isolated_steps_per_sec: 4e-12 steps/s summed over 8 GPUs is 5e-13 job steps/s: expected at least 1e-12 (the canonical reader's range)"},
		// the re-profiled table too: "v100,1,A,A,16,2," is 16 bytes, 17
		{"shockwave job rate under 1e-12", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec,differs_from_gavel_physical_cluster_throughputs\nv100,1,A,A,16,2,1e-12,1\n",
		}, "tacc_throughputs_isolated.csv:2:17: column isolated_steps_per_sec: 1e-12 steps/s summed over 2 GPUs is 5e-13 job steps/s"},
		// the series' model name is made of gpu_type and job_type: a byte
		// that is no UTF-8 there came out of convert for its writer to
		// refuse, unpositioned (found by FuzzPublicTables)
		{"gavel gpu_type not UTF-8", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\n\x82,0,A3C,A3C,,1,3\n",
		}, `simulation_throughputs_isolated.csv:2:1: column gpu_type: "\x82" is not valid UTF-8`},
		{"gavel consolidated 7", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nk80,7,A3C,A3C,,1,3\n",
		}, "simulation_throughputs_isolated.csv:2:5: column consolidated: expected 1 (one server) or 0 (spread over servers), got 7"},
		{"dl2 header only", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\n",
		}, "ps_worker_speed.csv: header only: no data rows after line 1"},
		// Short rows: the column is the one just past the last field. "2,64,0.2":
		// 0.2 starts at 6, 3 bytes, so 9.
		{"pollux short row", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n2,64,0.2\n",
		}, "placements.csv:3:9: row ends after 3 of the header's 4 fields: column \"sync_time\" missing"},
		// a file cut mid-row, no final newline: 0.14 starts at 8, 4 bytes, so 12.
		{"pollux cut mid-row", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n114,64,0.14",
		}, "placements.csv:3:12: row ends after 3 of the header's 4 fields: column \"sync_time\" missing"},
		// "1,4,0.5,0.01," is 13 bytes: the extra field starts at 14.
		{"pollux long row", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv": "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01,9\n",
		}, "placements.csv:2:14: 5 fields, expected 4 as in the header"},
		{"pollux scalability short row", "pollux-osdi21", map[string]string{
			"traces/bert/placements.csv":  "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n",
			"traces/bert/scalability.csv": "num_nodes,num_replicas,local_bsz,step_time,sync_time\n2,4,8\n",
		}, "scalability.csv:2:6: row ends after 3 of the header's 5 fields: column \"step_time\" missing"},
		// the last 1 (num_workers) starts at 23: 24.
		{"dl2 short row", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg-16,dist_sync,32,1,1\n",
		}, "ps_worker_speed.csv:2:24: row ends after 5 of the header's 6 fields: column \"speed_sum\" missing"},
		// a rate at a global batch below its GPU count: the throughput.csv
		// writer refused the row after convert had read it
		{"dl2 batch below workers", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg-16,dist_sync,2,1,4,3.5\n",
		}, "ps_worker_speed.csv:2:18: column tot_batch_size: 2 samples a step on 4 workers: each worker takes at least one sample a step (expected a total batch of at least 4)"},
		{"elasticflow batch below GPUs", "elasticflow-asplos23", map[string]string{
			"throughputs_A100_raw/bert.csv": "global_batch_size,1,2\n1,5,6\n",
		}, "bert.csv:2:5: column 2: a rate at global batch 1 on 2 GPUs: each GPU takes at least one sample a step (expected a global batch of at least 2, or the cell empty)"},
		{"elasticflow short row", "elasticflow-asplos23", map[string]string{
			"throughputs_A100_raw/bert.csv": "global_batch_size,1,2\n64,1\n",
		}, "bert.csv:2:5: row ends after 2 of the header's 3 fields: column \"2\" missing"},
		// replicated starts at 15, 10 bytes: 25.
		{"tf-cnn short row", "tf-cnn-benchmarks-2017", map[string]string{
			"tf_cnn_benchmarks_may2017.csv": "platform,num_gpus,model,batch_size_per_gpu,data,variable_update,images_per_sec\nX,1,M,32,real,replicated\n",
		}, "tf_cnn_benchmarks_may2017.csv:2:25: row ends after 6 of the header's 7 fields: column \"images_per_sec\" missing"},
		// the audit's case: a row cut after batch_size (empty, at 15).
		{"gavel short row", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nk80,1,A3C,A3C,\n",
		}, "simulation_throughputs_isolated.csv:2:15: row ends after 5 of the header's 7 fields: column \"scale_factor\" missing"},
		{"gavel empty field", "gavel-osdi20", map[string]string{
			"simulation_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\nk80,1,A3C,A3C,,,3\n",
		}, "simulation_throughputs_isolated.csv:2:16: column scale_factor: expected an integer, got an empty field"},
		// the last 3 starts at 17: 18.
		{"shockwave short row", "shockwave-nsdi23", map[string]string{
			"tacc_throughputs_isolated.csv": "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec,differs_from_gavel_physical_cluster_throughputs\nv100,1,A,A,16,1,3\n",
		}, "tacc_throughputs_isolated.csv:2:18: row ends after 7 of the header's 8 fields: column \"differs_from_gavel_physical_cluster_throughputs\" missing"},
		{"dl2 binary", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "\x7fELF\x02\x01\x01\x00\x00\x00\x1b[31m\n",
		}, `ps_worker_speed.csv:1: missing required column "model" (line 1 is not text: not a CSV file? It starts "\x7fELF\x02\x01\x01\x00\x00\x00\x1b[31m")`},
		// a tab is text; the line is the header's (it always said line 1)
		{"dl2 binary after a blank line", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "\n\x7fELF\x02\n",
		}, `ps_worker_speed.csv:2: missing required column "model" (line 2 is not text: not a CSV file? It starts "\x7fELF\x02")`},
		{"dl2 tab-separated", "dl2-mxnet-ps-speed", map[string]string{
			"ps_worker_speed.csv": "model\tps\n",
		}, `ps_worker_speed.csv:1: missing required column "model" (header has "model\tps": tab-separated? expected columns separated by commas)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range c.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := LoadDataset(c.dataset, dir)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.HasPrefix(err.Error(), "traces: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// A DL2 row's sync_mode is its mode: dist_async was written as mode sync
// (the column was not read), under the run name of a dist_sync row of the
// same counts.
func TestDL2SyncMode(t *testing.T) {
	dir := t.TempDir()
	body := "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nresnet-50,dist_async,32,1,2,5\nresnet-50, dist_sync ,32,1,2,4\n"
	if err := os.WriteFile(filepath.Join(dir, "ps_worker_speed.csv"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, warns, err := LoadDataset("dl2-mxnet-ps-speed", dir)
	if err != nil || len(warns) != 0 || len(rows) != 2 {
		t.Fatalf("rows %v, warnings %v, error %v; want 2 rows", rows, warns, err)
	}
	for i, w := range []struct{ mode, run string }{{"async", "ps=1 workers=2 async"}, {"sync", "ps=1 workers=2"}} {
		if r := rows[i]; r.Mode != w.mode || r.Run != w.run || r.Workers != 2 || r.PS != 1 || r.GlobalBatch != 32 {
			t.Errorf("row %d: mode %q run %q (%d workers, %d ps, global batch %d); want mode %s, run %q", i+1, r.Mode, r.Run, r.Workers, r.PS, r.GlobalBatch, w.mode, w.run)
		}
	}
}

// TestLoadDatasetExcerpts reads the licensed excerpts in testdata/public
// (no shared data needed).
func TestLoadDatasetExcerpts(t *testing.T) {
	cases := []struct {
		name        string
		rows, warns int
	}{
		// cifar10 only: 216 placements + 70 scalability rows; the 5 other
		// model folders are absent (5 warnings).
		{"pollux-osdi21", 286, 5},
		// 36 DGX-1 synthetic + 25 distributed rows.
		{"tf-cnn-benchmarks-2017", 61, 0},
		// the 166 v100 rows, none zero.
		{"gavel-osdi20", 166, 0},
		// the whole of what the loader reads: 88 rows, 6 of them 0.
		{"shockwave-nsdi23", 82, 6},
	}
	for _, c := range cases {
		rows, warns, err := LoadDataset(c.name, pubTestdata(t, c.name))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(rows) != c.rows || len(warns) != c.warns {
			t.Errorf("%s: %d rows %d warnings, want %d and %d", c.name, len(rows), len(warns), c.rows, c.warns)
		}
	}
}

// FuzzPublicTables feeds arbitrary bytes as the main file of each public
// dataset: no panic, errors positioned, rows with workers >= 1 and a
// positive finite rate.
func FuzzPublicTables(f *testing.F) {
	files := map[string]string{
		"pollux-osdi21":          "traces/bert/placements.csv",
		"dl2-mxnet-ps-speed":     "ps_worker_speed.csv",
		"elasticflow-asplos23":   "throughputs_A100_raw/bert.csv",
		"tf-cnn-benchmarks-2017": "tf_cnn_benchmarks_may2017.csv",
		"gavel-osdi20":           "simulation_throughputs_isolated.csv",
		"shockwave-nsdi23":       "tacc_throughputs_isolated.csv",
	}
	names := Datasets()
	seed := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "public", filepath.FromSlash(rel)))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 3000 {
			b = b[:bytes.LastIndexByte(b[:3000], '\n')+1]
		}
		return b
	}
	f.Add(uint8(3), seed("pollux-osdi21/traces/cifar10/placements.csv"))
	f.Add(uint8(5), seed("tf-cnn-benchmarks-2017/tf_cnn_benchmarks_may2017.csv"))
	f.Add(uint8(2), seed("gavel-osdi20/simulation_throughputs_isolated.csv"))
	f.Add(uint8(4), seed("shockwave-nsdi23/tacc_throughputs_isolated.csv"))
	f.Add(uint8(0), []byte("model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg-16,dist_sync,32,1,2,3.5\n"))
	f.Add(uint8(1), []byte("global_batch_size,1,2,4\n64,6.0,8.6,\n128,0,1,2\n"))
	f.Add(uint8(3), []byte("placement,local_bsz,step_time,sync_time\n1,64,0.5,0.01\n114,64,0.14")) // cut mid-row
	f.Add(uint8(3), []byte("\x7fELF\x02\x01\x01\x00\x00\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		fsys := fstest.MapFS{files[name]: &fstest.MapFile{Data: data}}
		if name == "pollux-osdi21" {
			fsys["traces/bert/scalability.csv"] = &fstest.MapFile{Data: []byte("num_nodes,num_replicas,local_bsz,step_time\n2,4,8,0.5\n")}
		}
		rows, warns, err := datasetLoaders[name](pubFiles{fsys: fsys, dir: "fuzz"})
		for _, e := range append(warns, err) {
			if e != nil && !strings.HasPrefix(e.Error(), "traces: ") {
				t.Fatalf("error without prefix: %v", e)
			}
			requirePrintable(t, e)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 && !strings.Contains(pe.Msg, "empty file") && !strings.HasPrefix(pe.Msg, "header only") {
				t.Fatalf("error not positioned: %v", err)
			}
			return
		}
		// what convert writes (rows with a batch size) reads back
		var kept []Throughput
		for _, r := range rows {
			if r.Batch > 0 || r.GlobalBatch > 0 {
				kept = append(kept, r)
			}
		}
		if len(kept) > 0 {
			var buf bytes.Buffer
			if err := WriteThroughput(&buf, kept); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadThroughput(&buf, "throughput.csv", func(Throughput) error { return nil }); err != nil {
				t.Fatalf("rows do not read back: %v\n%+v", err, kept)
			}
		}
		for _, r := range rows {
			ok := r.StepsPerS > 0 && !math.IsInf(r.StepsPerS, 0) || r.SamplesPerS > 0 && !math.IsInf(r.SamplesPerS, 0)
			if r.Workers < 1 || !ok || r.Model == "" {
				t.Fatalf("bad row %+v", r)
			}
		}
	})
}

// requirePrintable fails t when the text of err (nil passes) is not valid
// UTF-8 or holds control characters: bytes of a binary input must come out
// escaped, never raw on the user's terminal.
func requirePrintable(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if s := err.Error(); !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		t.Fatalf("error text is not printable: %q", s)
	}
}
