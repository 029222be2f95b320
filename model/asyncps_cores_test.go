package model

import "testing"

// A core count past MaxSharedCores is refused by Validate, and the network
// never gets a station with a negative (overflowed) number of servers.
func TestAsyncPSSharedCoresBounded(t *testing.T) {
	a := AsyncPS{Compute0: 0.1, Apply: 0.001, Latency: 0.01, SharedCores: 1 << 62}
	if err := a.Validate(); err == nil {
		t.Error("Validate accepts 2^62 shared cores")
	}
	for _, c := range []Config{{Workers: 4, PS: 1}, {Workers: 4, PS: 1, Nodes: 3}} {
		if err := a.Network(c).Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	a.SharedCores = 2
	n := a.Network(Config{Workers: 5, PS: 1, Nodes: 2})
	if len(n.Stations) == 0 || n.Stations[0].Name != "compute" || n.Stations[0].Servers != 4 {
		t.Errorf("2 cores on 2 machines for 5 workers: stations %+v, want a compute station of 4 servers", n.Stations)
	}
	if n := a.Network(Config{Workers: 4, PS: 1, Nodes: 2}); n.Stations[0].Name == "compute" {
		t.Errorf("4 cores for 4 workers: a compute station %+v", n.Stations[0])
	}
}

// With shared cores on fixed machines the sweep solves the network's two
// forms (compute a delay, then a station) in one pass each, and its numbers
// are StepsPerSecond's exactly, in every variant (before, each count was
// solved on its own: O(N^2)).
func TestAsyncPSSweepSharedCoresExact(t *testing.T) {
	for _, v := range []AsyncPS{
		{Compute0: 0.1, Compute1: 1e-4, ParamBytes: 4e6, Bandwidth: 4e8, Apply: 0.002, SCVCompute: 0.2, SCVPush: 0.01, SCVPull: 0.01, SCVApply: 0.5},
	} {
		for _, mode := range []struct{ corr, flow bool }{{false, false}, {true, false}, {true, true}} {
			for _, cores := range []int{1, 2, 7} {
				a := v
				a.Correction, a.Flow, a.SharedCores = mode.corr, mode.flow, cores
				for _, c := range []Config{{PS: 1, Nodes: 1}, {PS: 2, Nodes: 3, Batch: 64}, {PS: 1}} {
					xs := make([]float64, 60)
					a.Sweep(c, xs)
					for i, x := range xs {
						d := c
						d.Workers = i + 1
						if want := a.StepsPerSecond(d); x != want {
							t.Errorf("cores %d %+v %+v N=%d: sweep %v, StepsPerSecond %v", cores, mode, c, i+1, x, want)
						}
					}
				}
			}
		}
	}
}
