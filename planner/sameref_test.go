package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sameAllocBits fails t unless got and want, an allocation and its
// reference implementation's, are equal bit for bit (NaN and -0 included);
// where names the instance in the message.
func sameAllocBits(t *testing.T, where string, got, want []float64) {
	t.Helper()
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: job %d gets %v, reference %v\n got %v\nwant %v", where, i, got[i], want[i], got, want)
		}
	}
}

// randomServers is the servers of a random instance at trial: a whole
// count below 600, half a worker more on every 4th trial, under 3 on the
// next.
func randomServers(rng *rand.Rand, trial int) float64 {
	n := float64(rng.IntN(600))
	switch trial % 4 {
	case 0:
		n += 0.5
	case 1:
		n = 3 * rng.Float64()
	}
	return n
}

// randomJobs draws m jobs of randomCurve(rng, shared), a third capped at 1
// to 300 workers, each then given what extra draws (nil: nothing), and
// their remaining work: 100 to 400 s, or up to 3600 s for a third.
func randomJobs(rng *rand.Rand, m int, shared []float64, extra func(j *Job)) ([]Job, []float64) {
	jobs := make([]Job, m)
	rem := make([]float64, m)
	for i := range jobs {
		jobs[i].Curve = randomCurve(rng, shared)
		if rng.IntN(3) == 0 {
			jobs[i].MaxWorkers = 1 + rng.IntN(300)
		}
		if extra != nil {
			extra(&jobs[i])
		}
		rem[i] = float64(100 * (1 + rng.IntN(4)))
		if rng.IntN(3) == 0 {
			rem[i] = 3600 * rng.Float64()
		}
	}
	return jobs, rem
}

// sameSimulations fails t unless Simulate gives the same Result (%#v) under
// pol and under its reference ref for jobs at every everyJobSettings of
// servers; where names the workload in the messages.
func sameSimulations(t *testing.T, where string, jobs []Job, servers float64, pol, ref Policy) {
	t.Helper()
	for _, s := range everyJobSettings(servers) {
		got, gerr := Simulate(jobs, pol, s)
		want, werr := Simulate(jobs, ref, s)
		if gerr != nil || werr != nil {
			t.Errorf("%s, %+v: error %v, reference %v", where, s, gerr, werr)
		}
		if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
			t.Errorf("%s, %+v: results differ from the reference (mean response %v vs %v)", where, s, got.MeanResponse, want.MeanResponse)
		}
	}
}
