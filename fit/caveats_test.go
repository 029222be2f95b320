package fit

import (
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// Caveats gives a library caller the warnings predict prints beside the
// same configurations: none inside the data; beyond the fitted workers the
// extrapolation and (async) the staleness law's record; beyond the fitted
// shards; a link rate outside the fitted ones; a per-worker batch set
// outside the fitted one.
func TestCaveats(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	if got := m.Caveats([]model.Config{{Workers: 1}, {Workers: 2, PS: 2}}); len(got) != 0 {
		t.Errorf("inside the data: %q, want none", got)
	}
	has := func(ws []string, sub string) bool {
		for _, w := range ws {
			if strings.Contains(w, sub) {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		name string
		cs   []model.Config
		want []string
	}{
		{"8 workers", []model.Config{{Workers: 8}}, []string{"predictions beyond 2 workers (the largest fitted) are extrapolations", "staleness is predicted as", "staleness cost lambda 0, 90% interval [0, "}},
		{"4 shards", []model.Config{{Workers: 2, PS: 4}}, []string{"4 PS shards is beyond the 2 fitted"}},
		{"link rate", []model.Config{{Workers: 2, Bandwidth: 3e7}}, []string{"link rate 3e+07 B/s is outside the rates fitted (3e+06 to 6e+06 B/s)"}},
		{"batch", []model.Config{{Workers: 2, Batch: 128}}, []string{"the model was fitted at one per-worker batch (32 samples)", "the loss curve counts updates of 32 samples; at 2 workers an update has 128"}},
	} {
		got := m.Caveats(c.cs)
		for _, w := range c.want {
			if !has(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
	}
	if got := m.Caveats([]model.Config{{Workers: 2, PS: 4}}); has(got, "extrapolations") {
		t.Errorf("2 workers: %q names workers beyond the data", got)
	}
}

// A configuration CheckConfig refuses comes first in Caveats (Predict
// answers it with NaN), and a model whose prediction does not follow the
// link rate (no queueing record: what WithBandwidth refuses) neither
// widens for a rate nor warns of one.
func TestCaveatsRefusedAndNoLink(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	got := m.Caveats([]model.Config{{Workers: -1}, {Workers: 2}})
	if len(got) == 0 || got[0] != "workers -1: want >= 1 (0: one worker): Predict answers NaN" {
		t.Errorf("workers -1: %q", got)
	}
	flat := *m
	flat.Queueing = nil
	if flat.ScalesLink() {
		t.Fatal("a model without its queueing record scales the link")
	}
	far := model.Config{Workers: 2, PS: 1, Bandwidth: 3e7}
	if d := flat.linkDistance(far); d != 0 {
		t.Errorf("link distance without the queueing record: %g, want 0", d)
	}
	for _, w := range flat.Caveats([]model.Config{far}) {
		if strings.Contains(w, "link rate") {
			t.Errorf("without the queueing record: %q", w)
		}
	}
}

// Caveats says when a configuration's global batch lies outside the batch
// law's fitted batches (predict printed it; Caveats did not): the law of
// gnsModelJSON is fitted on 32 to 256 samples a step, so 8 workers of 32
// (256) are inside and 9 (288) outside.
func TestCaveatsBatchLaw(t *testing.T) {
	m, err := ParseModel("gns.json", []byte(gnsModelJSON))
	if err != nil {
		t.Fatal(err)
	}
	law := func(ws []string) bool {
		for _, w := range ws {
			if strings.HasPrefix(w, "the batch law (gradient noise scale 320 samples) is fitted on global batches 32 to 256") {
				return true
			}
		}
		return false
	}
	if got := m.Caveats([]model.Config{{Workers: 8}}); law(got) {
		t.Errorf("8 workers (256 samples): %q warns of the batch law", got)
	}
	got := m.Caveats([]model.Config{{Workers: 9}})
	if !law(got) {
		t.Errorf("9 workers (288 samples): %q lacks the batch law's range", got)
	}
	// the file records no fitted worker counts: no "beyond 0 workers"
	if !slices.Contains(got, "the model does not record the worker counts it was fitted on (no data.configurations or reference.max_workers): any prediction may be an extrapolation") {
		t.Errorf("no fitted worker counts recorded: %q", got)
	}
}
