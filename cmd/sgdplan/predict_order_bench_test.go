package main

import (
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkPredictOrder is predict --format csv over 20,000 worker counts
// given ascending (a range) and descending (a comma list), on the model fit
// gives testdata/asgd: each count below the last restarted the model's
// recursions from 1 before predict evaluated the counts in ascending order,
// which fit.Model.Prime now makes needless.
//
//	go test ./cmd/sgdplan/ -run '^$' -bench PredictOrder -benchtime 1x -count 5
func BenchmarkPredictOrder(b *testing.B) {
	model := filepath.Join(b.TempDir(), "asgd.json")
	if code := run([]string{"sgdplan", "fit", "../../testdata/asgd", "--out", model}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
		b.Fatalf("fit exit %d", code)
	}
	const n = 20000
	desc := make([]string, n)
	for i := range desc {
		desc[i] = strconv.Itoa(n - i)
	}
	for _, c := range []struct{ name, workers string }{{"ascending", "1-" + strconv.Itoa(n)}, {"descending", strings.Join(desc, ",")}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code := run([]string{"sgdplan", "predict", "--model", model, "--workers", c.workers, "--format", "csv"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
