package fit

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// gavelRow is a LoadDataset row of gavel-osdi20.
func gavelRow(job, gpu string, batch, gpus int, consolidated bool, stepsPerS float64) traces.Throughput {
	// stepsPerS is Gavel's figure, the workers' steps summed; the loader
	// gives the job's, over the GPUs
	r := traces.Throughput{Model: job + "/" + gpu, Batch: batch, Workers: gpus, StepsPerS: stepsPerS / float64(gpus), Mode: "allreduce"}
	if consolidated {
		r.Nodes = 1
	} else {
		r.Model += "_unconsolidated"
	}
	return r
}

// GavelSeries pools a model's batch sizes into one series per GPU type,
// trains on 1-4 GPUs and tests 8, takes the loader's steps/s (the summed
// steps over the GPUs),
// leaves out spread jobs and jobs without a batch size, and counts the
// pairs that would be super-linear under each reading.
func TestGavelSeriesSplitsAndReads(t *testing.T) {
	var rows []traces.Throughput
	// ResNet-50 on v100 at two batches: sum of steps grows 1 -> 8 GPUs,
	// by less than 8x at batch 16 and by more at batch 32.
	for _, b := range []int{16, 32} {
		job := "ResNet-50 (batch size " + map[int]string{16: "16", 32: "32"}[b] + ")"
		for _, g := range []int{1, 2, 4, 8} {
			v := 10 * float64(g) * 0.8
			if b == 32 && g == 8 {
				v = 10 * 8 * 1.1
			}
			rows = append(rows, gavelRow(job, "v100", b, g, true, v))
			rows = append(rows, gavelRow(job, "v100", b, g, false, v/2))
		}
	}
	rows = append(rows, gavelRow("A3C", "v100", 0, 1, true, 3))
	// a model measured on 1 and 2 GPUs only: no test point, left out.
	rows = append(rows, gavelRow("LM (batch size 5)", "k80", 5, 1, true, 4), gavelRow("LM (batch size 5)", "k80", 5, 2, true, 7))

	ss, ev, err := GavelSeries(HeldOutDataset, rows, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Name != "ResNet-50/v100" || ss[0].Dataset != HeldOutDataset {
		t.Fatalf("series %+v", ss)
	}
	s := ss[0]
	if len(s.Train) != 6 || len(s.Test) != 2 {
		t.Fatalf("train %d test %d, want 6 and 2", len(s.Train), len(s.Test))
	}
	for _, p := range s.Test {
		if p.Config.Workers != 8 {
			t.Errorf("test point at %d GPUs", p.Config.Workers)
		}
	}
	for _, p := range s.Train {
		if p.Config.Workers > 4 {
			t.Errorf("training point at %d GPUs", p.Config.Workers)
		}
		// 10 * g * 0.8 summed steps/s over g GPUs: 8 job steps/s.
		if math.Abs(p.StepsPerS-8) > 1e-12 {
			t.Errorf("%d GPUs: job steps/s %g, want 8", p.Config.Workers, p.StepsPerS)
		}
	}
	if ev.Pairs != 2 || ev.SuperJob != 2 || ev.SuperSum != 1 {
		t.Errorf("reading evidence %+v, want 2 pairs, 2 super-linear as job steps, 1 as summed", ev)
	}
}

// With spread, the same training predicts the spread-out jobs of 2-8 GPUs
// of the same model and GPU type (their summed steps/s divided by the
// GPUs too).
func TestGavelSeriesSpread(t *testing.T) {
	var rows []traces.Throughput
	for _, g := range []int{1, 2, 4, 8} {
		rows = append(rows, gavelRow("LM (batch size 10)", "p100", 10, g, true, 6*float64(g)))
		rows = append(rows, gavelRow("LM (batch size 10)", "p100", 10, g, false, 3*float64(g)))
	}
	ss, _, err := GavelSeries(HeldOutDataset, rows, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || len(ss[0].Train) != 3 || len(ss[0].Test) != 3 {
		t.Fatalf("series %+v", ss)
	}
	for _, p := range ss[0].Test {
		if p.Config.Workers < 2 || p.Config.Nodes != 0 || math.Abs(p.StepsPerS-3) > 1e-12 {
			t.Errorf("spread test point %+v (steps/s %g), want 2-8 GPUs, servers unknown, 3 job steps/s", p.Config, p.StepsPerS)
		}
	}
	for _, p := range ss[0].Train {
		if p.Config.Nodes != 1 || math.Abs(p.StepsPerS-6) > 1e-12 {
			t.Errorf("training point %+v (steps/s %g), want consolidated at 6 job steps/s", p.Config, p.StepsPerS)
		}
	}
}

// The re-measured V100 jobs of shockwave-nsdi23 (the project's excerpt is
// all the loader reads) make 4 series, named for the dataset, each trained
// on 1-4 GPUs at every batch and tested at 8.
func TestGavelSeriesShockwave(t *testing.T) {
	rows, _, err := traces.LoadDataset(HeldOutRemeasured, filepath.Join("..", "testdata", "public"))
	if err != nil {
		t.Fatal(err)
	}
	ss, ev, err := GavelSeries(HeldOutRemeasured, rows, false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ss {
		names = append(names, s.Name)
		if s.Dataset != HeldOutRemeasured || len(s.Test) == 0 || len(s.Train) != 3*len(s.Test) {
			t.Errorf("%s: dataset %q, %d train, %d test points", s.Name, s.Dataset, len(s.Train), len(s.Test))
		}
	}
	if got := strings.Join(names, ","); got != "LM/v100,ResNet-18/v100,ResNet-50/v100,Transformer/v100" {
		t.Errorf("series %s", got)
	}
	// 18 (job, batch) pairs with 1 and 8 GPUs: every one super-linear read
	// as the job's steps, none read as the sum.
	if ev.Pairs != 18 || ev.SuperJob != 18 || ev.SuperSum != 0 {
		t.Errorf("reading evidence %+v", ev)
	}
}

// TFCNNServerSeries keeps the series measured on one server only, trains
// on 1-4 GPUs and tests 8; a series with a 16-GPU row is the protocol's
// and is not held out; one without an 8-GPU row or with one training GPU
// count is named among the skipped.
func TestTFCNNServerSeriesSplits(t *testing.T) {
	row := func(model string, gpus, nodes int, v float64) traces.Throughput {
		return traces.Throughput{Model: model, Workers: gpus, Nodes: nodes, Batch: 64, GlobalBatch: 64 * gpus, SamplesPerS: v, StepsPerS: math.NaN(), Mode: "allreduce"}
	}
	var rows []traces.Throughput
	for _, g := range []int{1, 2, 4, 8} {
		rows = append(rows, row("DGX-1/ResNet-50", g, 1, 200*float64(g)))
	}
	for _, g := range []int{1, 2, 4, 8, 16} {
		rows = append(rows, row("EC2 distributed/ResNet-50", g, (g+7)/8, 50*float64(g)))
	}
	rows = append(rows, row("GCE/AlexNet", 1, 1, 500), row("GCE/AlexNet", 2, 1, 900), row("GCE/AlexNet", 4, 1, 1600))
	rows = append(rows, row("GCE/VGG16", 4, 1, 100), row("GCE/VGG16", 8, 1, 180))
	ss, skipped, err := TFCNNServerSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Name != "DGX-1/ResNet-50" || ss[0].Dataset != HeldOutServer {
		t.Fatalf("series %+v", ss)
	}
	if len(ss[0].Train) != 3 || len(ss[0].Test) != 1 || ss[0].Test[0].Config.Workers != 8 {
		t.Fatalf("train %d, test %+v", len(ss[0].Train), ss[0].Test)
	}
	for _, p := range ss[0].Train {
		if p.Config.Workers > 4 {
			t.Errorf("training point at %d GPUs", p.Config.Workers)
		}
	}
	joined := strings.Join(skipped, "; ")
	if len(skipped) != 2 || !strings.Contains(joined, "GCE/AlexNet (3 train, 0 test rows)") || !strings.Contains(joined, "GCE/VGG16 (1 train, 1 test rows)") {
		t.Errorf("skipped %q", skipped)
	}
	if strings.Contains(joined, "distributed") {
		t.Errorf("a protocol series named as skipped: %q", skipped)
	}
}
