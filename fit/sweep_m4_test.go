package fit

import (
	"math"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// Tests from mutation round 4 of the memoised sweep.

// Vectors that share their first parameters are other keys of the memo:
// each parameter's bits are in the key. At one worker the exact network
// of the mva family is one cycle, 1 / (z0 + z1 b + 2 link + apply) (no
// queueing: TestProfileApplyInsidePush):
//
//	link 0.01: 1 / (0.05 + 0.02 + 0.002) = 13.889 steps/s
//	link 0.02: 1 / (0.05 + 0.04 + 0.002) = 10.870
//	apply 0.006: 1 / (0.05 + 0.02 + 0.006) = 13.158
func TestSweepMemoKeysEveryParameter(t *testing.T) {
	f := mvaFamily(Queueing{})
	s := newSweepMemo()
	c := model.Config{Workers: 1, PS: 1}
	for _, k := range []struct {
		th   []float64
		want float64
	}{
		{[]float64{0.05, 0, 0.01, 0.002}, 1 / 0.072},
		{[]float64{0.05, 0, 0.02, 0.002}, 1 / 0.092},
		{[]float64{0.05, 0, 0.01, 0.006}, 1 / 0.076},
		{[]float64{0.05, 0, 0.01, 0.002}, 1 / 0.072}, // back to the first
	} {
		if got := s.predict(f, k.th, c); relErr(got, k.want) > 1e-12 {
			t.Errorf("theta %v at 1 worker: memo %.6g steps/s, want %.6g", k.th, got, k.want)
		}
	}
	// and at 8 workers, where the run of the first vector was grown:
	// the memo's numbers are Predict's for each vector
	c.Workers = 8
	for _, th := range [][]float64{{0.05, 0, 0.01, 0.002}, {0.05, 0, 0.02, 0.002}} {
		if got, want := s.predict(f, th, c), f.Predict(th, c); got != want {
			t.Errorf("theta %v at 8 workers: memo %g, Predict %g", th, got, want)
		}
	}
}

// stationsCap: a link carries no less than the payload bound (each update
// moves S/P bytes through it: P B/S updates/s), which replaces the link's
// own 1/D, never the other stations' bounds (Model.Saturation's doc).
// Stations: a link of D = 0.01 s (100/s), an apply of 0.002 s (500/s), a
// compute station of 0.03 s beside Z = 0.1 s.
//
//	no payload bound:  min(100, 500) = 100/s
//	payload 200/s:     link max(100, 200) = 200; min(200, 500) = 200/s
//	payload 1000/s:    link 1000; the apply's 500 still bounds: 500/s
//	payload 50/s:      below the link's own: 100/s
//	compute:           Z + 0.03 = 0.13 s
//
// A compute station (a shared machine's 2 cores, 0.03 s) is a queue whose
// bound, 2/0.03 = 66.7/s, the payload bound does not lift; its demand
// adds to the compute, 0.1 + 0.03 = 0.13 s.
func TestStationsCapPayloadReplacesTheLinkOnly(t *testing.T) {
	nw := model.Network{Z: 0.1, Stations: []model.Station{
		{Name: "push", D: 0.01, Kind: model.LinkStation},
		{Name: "apply", D: 0.002},
		{Name: "delay", D: 5, Delay: true}, // no bound
	}}
	for _, c := range []struct{ payload, want float64 }{
		{math.Inf(-1), 100}, {200, 200}, {1000, 500}, {50, 100},
	} {
		got := stationsCap(nw, c.payload)
		if relErr(got.most, c.want) > 1e-12 || relErr(got.compute, 0.1) > 1e-12 {
			t.Errorf("payload %g: most %g, compute %g; want %g and 0.1", c.payload, got.most, got.compute, c.want)
		}
	}
	nw.Stations = append(nw.Stations, model.Station{Name: "compute", D: 0.03, Servers: 2, Kind: model.ComputeStation})
	if got := stationsCap(nw, 1000); relErr(got.most, 2/0.03) > 1e-12 || relErr(got.compute, 0.13) > 1e-12 {
		t.Errorf("with 2 cores of 0.03 s: most %g, compute %g; want %g and 0.13", got.most, got.compute, 2/0.03)
	}
}
