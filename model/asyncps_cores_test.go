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
