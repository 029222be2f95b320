package planner

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// M/M/1 special case: one server, p = 1, exponential sizes of mean 1 (mu = 1),
// Poisson arrivals at lambda = 0.5, FIFO: mean response 1/(mu - lambda) = 2.
// EQUI on one server with p = 1 is processor sharing, whose mean response is
// the same, 2, and mean slowdown 1/(1 - rho) = 2. A medium run in the normal
// suite (100,000 jobs, about 1 s), a long one (1,000,000) with SGDPLAN_LONG=1.
func TestMM1(t *testing.T) {
	count := 100000
	if os.Getenv("SGDPLAN_LONG") != "" {
		count = 1000000
	}
	jobs, err := Poisson{Rate: 0.5, Count: count, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{1}}.Jobs(7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pol            Policy
		resp, slowdown float64
	}{{FIFO{}, 2, math.NaN()}, {Equi{}, 2, 2}} {
		r, err := Simulate(jobs, c.pol, Settings{Servers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(r.MeanResponse, c.resp); e > 0.03 {
			t.Errorf("%s: mean response %.4f, want 1/(mu-lambda) = %g within 3%% (%.2g)", c.pol.Name(), r.MeanResponse, c.resp, e)
		}
		if !math.IsNaN(c.slowdown) {
			// slowdown here is response/size; for PS E[T|x] = x/(1-rho).
			if e := relErr(r.MeanSlowdown, c.slowdown); e > 0.03 {
				t.Errorf("%s: mean slowdown %.4f, want %g", c.pol.Name(), r.MeanSlowdown, c.slowdown)
			}
		}
		if e := relErr(r.Utilization, 0.5); e > 0.03 {
			t.Errorf("%s: utilization %.4f, want rho = 0.5", c.pol.Name(), r.Utilization)
		}
		t.Logf("%s: %d jobs: mean response %.4f, slowdown %.4f, utilization %.4f", c.pol.Name(), count, r.MeanResponse, r.MeanSlowdown, r.Utilization)
	}
}

// Little's law: the time-average number in the system equals the arrival
// rate times the mean response, on a long run of 8 servers, p = 0.7,
// lognormal sizes, for every policy. The two sides are computed separately:
// the integral of the number of jobs present over time, and the per-job
// responses.
func TestLittlesLaw(t *testing.T) {
	count := 20000
	if testing.Short() {
		count = 5000
	}
	// mean size exp(0 + 1/2) = 1.6487 s; 8 servers at rate 8^0.7 = 4.29 for a
	// lone job; load 2 jobs/s x 1.65 = 3.3 worker-seconds per second.
	jobs, err := Poisson{Rate: 2, Count: count, Sizes: LogNormal{Mu: 0, Sigma: 1}, Curve: PowerLaw{0.7}, MaxWorkers: 4}.Jobs(11)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range PolicyNames {
		pol, _ := NewPolicy(name, 0)
		for _, integer := range []bool{false, true} {
			r, err := Simulate(jobs, pol, Settings{Servers: 8, Integer: integer})
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(r.MeanInSystem, r.ArrivalRate*r.MeanResponse); e > 0.02 {
				t.Errorf("%s integer=%v: L = %.4f, lambda W = %.4f (rel %.2g)", name, integer, r.MeanInSystem, r.ArrivalRate*r.MeanResponse, e)
			}
			if r.Utilization <= 0 || r.Utilization > 1+1e-9 {
				t.Errorf("%s: utilization %g", name, r.Utilization)
			}
		}
	}
}

// Early termination: with probability 1 every job stops at a uniform fraction
// of its requested size, so the mean work is half the mean size (within 2% on
// 20,000 jobs of size 1) and responses shrink; the policy still sees the
// requested size.
func TestEarlyStop(t *testing.T) {
	jobs, _ := Poisson{Rate: 0.3, Count: 20000, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{1}}.Jobs(3)
	for i := range jobs {
		jobs[i].Size = 1
	}
	full, _ := Simulate(jobs, SRPT{}, Settings{Servers: 1})
	r, err := Simulate(jobs, SRPT{}, Settings{Servers: 1, EarlyStop: 1, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	work := 0.0
	for _, j := range r.Jobs {
		if j.Work > j.Size || j.Work <= 0 {
			t.Fatalf("job %s work %g of size %g", j.ID, j.Work, j.Size)
		}
		work += j.Work
	}
	if e := relErr(work/float64(len(jobs)), 0.5); e > 0.02 {
		t.Errorf("mean work %g, want 0.5", work/float64(len(jobs)))
	}
	if r.MeanResponse >= full.MeanResponse {
		t.Errorf("early stop mean response %g not below full %g", r.MeanResponse, full.MeanResponse)
	}
	again, _ := Simulate(jobs, SRPT{}, Settings{Servers: 1, EarlyStop: 1, Seed: 9})
	if again.MeanResponse != r.MeanResponse {
		t.Errorf("same seed, different result: %g vs %g", again.MeanResponse, r.MeanResponse)
	}
}

// Energy: one job of size 8 alone on 4 servers with alpha = 2 runs at speed
// 4^(1/2) = 2, ends at 4 s, and uses power 4 for 4 s: energy 16, flow time +
// energy 20. Two jobs of size 1 under EQUI on 2 servers: each gets power 1,
// speed 1, both end at 1: energy 2, flow + energy 4.
func TestEnergy(t *testing.T) {
	cases := []struct {
		jobs               []Job
		n                  float64
		energy, flowEnergy float64
	}{
		{[]Job{{ID: "a", Size: 8, Curve: PowerLaw{1}}}, 4, 16, 20},
		{[]Job{{ID: "a", Size: 1, Curve: PowerLaw{1}}, {ID: "b", Size: 1, Curve: PowerLaw{1}}}, 2, 2, 4},
	}
	for i, c := range cases {
		r, err := Simulate(c.jobs, Equi{}, Settings{Servers: c.n, EnergyAlpha: 2})
		if err != nil {
			t.Fatal(err)
		}
		if relErr(r.Energy, c.energy) > 1e-12 || relErr(r.FlowPlusEnergy, c.flowEnergy) > 1e-12 {
			t.Errorf("case %d: energy %g, flow+energy %g; want %g, %g", i, r.Energy, r.FlowPlusEnergy, c.energy, c.flowEnergy)
		}
	}
}

func TestSimulateBadInput(t *testing.T) {
	ok := []Job{{ID: "a", Size: 1, Curve: PowerLaw{0.5}}}
	cases := []struct {
		name string
		jobs []Job
		s    Settings
	}{
		{"zero servers", ok, Settings{}},
		{"negative size", []Job{{ID: "a", Size: -1, Curve: PowerLaw{0.5}}}, Settings{Servers: 1}},
		{"p above 1", []Job{{ID: "a", Size: 1, Curve: PowerLaw{1.5}}}, Settings{Servers: 1}},
		{"p zero", []Job{{ID: "a", Size: 1, Curve: PowerLaw{0}}}, Settings{Servers: 1}},
		{"rigid too big", []Job{{ID: "a", Size: 1, Curve: PowerLaw{1}, RigidWorkers: 3}}, Settings{Servers: 2}},
		{"early stop", ok, Settings{Servers: 1, EarlyStop: 2}},
		{"fractional integer", ok, Settings{Servers: 1.5, Integer: true}},
		{"no jobs", nil, Settings{Servers: 1}},
	}
	for _, c := range cases {
		var pol Policy = Equi{}
		if strings.HasPrefix(c.name, "rigid") {
			pol = FCFSRigid{}
		}
		if _, err := Simulate(c.jobs, pol, c.s); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	// Other policies ignore rigid_workers.
	if _, err := Simulate([]Job{{ID: "a", Size: 1, Curve: PowerLaw{1}, RigidWorkers: 3}}, Equi{}, Settings{Servers: 2}); err != nil {
		t.Errorf("equi with rigid_workers above the servers: %v", err)
	}
}

// Recorded segments tile the time from 0 to the last completion and carry
// the allocation: on the worked example under SRPT (N = 1, p = 0.5) the
// smallest job holds the server in each of the four segments [0,1), [1,3),
// [3,6), [6,10).
func TestRecordSegments(t *testing.T) {
	r, err := Simulate(powerJobs([]float64{4, 3, 2, 1}, 0.5), SRPT{}, Settings{Servers: 1, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		start, end float64
		job        int
	}{{0, 1, 3}, {1, 3, 2}, {3, 6, 1}, {6, 10, 0}}
	if len(r.Segments) != len(want) {
		t.Fatalf("%d segments, want %d", len(r.Segments), len(want))
	}
	for i, w := range want {
		s := r.Segments[i]
		if s.Start != w.start || s.End != w.end {
			t.Errorf("segment %d: [%g, %g), want [%g, %g)", i, s.Start, s.End, w.start, w.end)
		}
		for k, j := range s.Jobs {
			if want := map[bool]float64{true: 1, false: 0}[j == w.job]; s.Workers[k] != want {
				t.Errorf("segment %d: job %d has %g workers, want %g", i, j, s.Workers[k], want)
			}
		}
	}
}

// MeanCI of 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5) = 1.5811, se 0.70711,
// t(0.975, 4) = 2.7764: 3 +- 1.9632.
func TestMeanCI(t *testing.T) {
	m, lo, hi := MeanCI([]float64{1, 2, 3, 4, 5}, 0.95)
	if m != 3 || relErr(lo, 3-1.9632) > 1e-4 || relErr(hi, 3+1.9632) > 1e-4 {
		t.Errorf("MeanCI = %g [%g, %g], want 3 [1.0368, 4.9632]", m, lo, hi)
	}
}

// Flow times are the time in the system summed as it passes, not
// completion - arrival on the absolute clock: at 1e12 s the clock resolves
// 1e-4 s, and jobs of 1e-5 s and 1e-300 s arriving there had flow time 0
// (slowdown 0, impossible).
func TestSimulateTinyJobsLate(t *testing.T) {
	jobs := []Job{
		{ID: "a", Arrival: 0, Size: 1e12, Curve: PowerLaw{P: 0.5}},
		{ID: "b", Arrival: 1e12, Size: 1e-5, Curve: PowerLaw{P: 0.5}},
		{ID: "c", Arrival: 1e12, Size: 1e-300, Curve: PowerLaw{P: 1}},
	}
	pol, err := NewPolicy("srpt", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Simulate(jobs, pol, Settings{Servers: 4})
	if err != nil {
		t.Fatal(err)
	}
	// SRPT: c alone on 4 servers (p = 1: 2.5e-301 s), then b on 4
	// (4^0.5 = 2: 5e-6 s after c)
	want := map[string]float64{"b": 2.5e-301 + 5e-6, "c": 2.5e-301}
	for _, j := range r.Jobs {
		if w, ok := want[j.ID]; ok && math.Abs(j.Response-w) > 1e-9*w {
			t.Errorf("%s: flow %g, want %g (slowdown %g)", j.ID, j.Response, w, j.Slowdown)
		}
	}
}

// A curve that gives an infinite or NaN speedup is refused at the job: an
// infinite rate made the work attained NaN (Inf x 0) and the simulation
// never ended.
func TestSimulateRefusesNonFiniteSpeedup(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.NaN()} {
		jobs := []Job{
			{ID: "a", Size: 10, Curve: curveFunc(func(k float64) float64 { return k })},
			{ID: "b", Size: 20, Curve: curveFunc(func(float64) float64 { return bad })},
		}
		done := make(chan error, 1)
		go func() {
			_, err := Simulate(jobs, Equi{}, Settings{Servers: 4})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), `job "b"`) || !strings.Contains(err.Error(), "want a finite number") {
				t.Errorf("speedup %g: err = %v, want one naming job b and a finite number", bad, err)
			}
		case <-time.After(20 * time.Second):
			// t.Fatalf would leave the simulation spinning under the
			// package's remaining tests; end the binary instead, with
			// every goroutine's stack (the stuck loop's among them).
			debug.SetTraceback("all")
			panic(fmt.Sprintf("speedup %g: Simulate did not return in 20 s", bad))
		}
	}
}

// zeroCheck is Equi that records whether alloc held anything but zeros on
// entry to Allocate.
type zeroCheck struct {
	Equi
	calls, dirty *int
}

func (z zeroCheck) Allocate(servers float64, jobs []View, alloc []float64) {
	*z.calls++
	for _, a := range alloc {
		if a != 0 {
			*z.dirty++
			break
		}
	}
	z.Equi.Allocate(servers, jobs, alloc)
}

// A policy gets alloc all zeros, as Policy says: the simulator reuses the
// slice between events, and a policy that fills only some entries (as a
// third party's may) must not see the last event's shares in the others.
func TestSimulateAllocZeroOnEntry(t *testing.T) {
	jobs := []Job{
		{ID: "a", Size: 10, Curve: PowerLaw{1}},
		{ID: "b", Arrival: 1, Size: 20, Curve: PowerLaw{1}},
		{ID: "c", Arrival: 2, Size: 5, Curve: PowerLaw{1}},
	}
	var calls, dirty int
	if _, err := Simulate(jobs, zeroCheck{calls: &calls, dirty: &dirty}, Settings{Servers: 4}); err != nil {
		t.Fatal(err)
	}
	if calls < 3 || dirty != 0 {
		t.Errorf("%d calls, %d with alloc not all zeros on entry; want >= 3 and 0", calls, dirty)
	}
}

// Jobs out of order of arrival are refused: the simulator hands policies
// the jobs in input order as their arrival order, so fifo served a later
// job first, and fcfs-rigid gave a waiting job workers that a started one
// held ("allocated 8 workers of 7").
func TestSimulateRefusesUnsortedArrivals(t *testing.T) {
	jobs := []Job{
		{ID: "a", Arrival: 0, Size: 10, Curve: PowerLaw{P: 1}, RigidWorkers: 4},
		{ID: "late", Arrival: 5, Size: 10, Curve: PowerLaw{P: 1}, RigidWorkers: 4},
		{ID: "early", Arrival: 1, Size: 10, Curve: PowerLaw{P: 1}, RigidWorkers: 4},
	}
	for _, pol := range []Policy{FIFO{}, FCFSRigid{}} {
		_, err := Simulate(jobs, pol, Settings{Servers: 7})
		if err == nil || !strings.Contains(err.Error(), `job "early" arrives at 1, before job "late" (5) listed before it: want jobs in order of arrival`) {
			t.Errorf("%s: %v, want the order refused", pol.Name(), err)
		}
	}
	jobs[1].Arrival = 1 // equal arrivals: any order
	if _, err := Simulate(jobs, FIFO{}, Settings{Servers: 7}); err != nil {
		t.Error(err)
	}
}

// A job that arrives while a worker is idle starts at its arrival, not an
// ulp later: the clock went t + (arrival - t), 3.902 + 8.664 =
// 12.566000000000003 for an arrival at 12.566, and C counted as queued
// (a third of the jobs) with a response of 1.0000000000000018.
//
// Two servers, p = 1: A (3.902 s) and B (1000 s) start at 0 on one worker
// each (fcfs-rigid, whole workers) or half the cluster each (equi,
// fractional: 1 worker each too); A leaves at 3.902, and C arrives at
// 12.566 to the idle worker: start 12.566, response 1 s, not queued.
func TestSimulateArrivalAtIdleNotQueued(t *testing.T) {
	jobs := []Job{
		{ID: "A", Arrival: 0, Size: 3.902, Curve: PowerLaw{P: 1}},
		{ID: "B", Arrival: 0, Size: 1000, Curve: PowerLaw{P: 1}},
		{ID: "C", Arrival: 12.566, Size: 1, Curve: PowerLaw{P: 1}},
	}
	for _, c := range []struct {
		pol     Policy
		integer bool
	}{
		{FCFSRigid{}, true},
		{hideQueueing(FCFSRigid{}), true}, // the general path
		{Equi{}, false},
	} {
		r, err := Simulate(jobs, c.pol, Settings{Servers: 2, Integer: c.integer, Record: true})
		if err != nil {
			t.Fatal(err)
		}
		// the recorded segments end where the next starts (the one before
		// C's arrival ended an ulp past it, and plan --plot refused that)
		for i := 1; i < len(r.Segments); i++ {
			if r.Segments[i].Start < r.Segments[i-1].End {
				t.Errorf("%s integer=%v: segment %d starts at %v, before segment %d ends (%v)", c.pol.Name(), c.integer, i, r.Segments[i].Start, i-1, r.Segments[i-1].End)
			}
		}
		j := r.Jobs[2]
		if j.Start != 12.566 || j.Queued || j.Response != 1 {
			t.Errorf("%s integer=%v: C starts at %v (queued %v), response %v; want 12.566 (not queued), 1",
				c.pol.Name(), c.integer, j.Start, j.Queued, j.Response)
		}
		if r.QueuedFraction != 0 {
			t.Errorf("%s integer=%v: queued fraction %g, want 0", c.pol.Name(), c.integer, r.QueuedFraction)
		}
	}
}

// A job of subnormal size can leave work that takes no time at its rate:
// 5e-324 s (the least float above 0) at rate 4^0.5 = 2 runs for
// 5e-324 / 2 = 2.5e-324 s, which rounds to 0, so the work attained stays
// 0 and every event repeats the last. Simulate returns ErrNoProgress,
// naming the job, where it never returned; so does the review's Poisson
// workload (mean size 1e-310 s, equi on 4 servers).
func TestSimulateNoProgressIsError(t *testing.T) {
	tiny := []Job{
		{ID: "tiny", Size: 5e-324, Curve: PowerLaw{P: 0.5}},
		{ID: "b", Arrival: 1, Size: 1, Curve: PowerLaw{P: 0.5}},
	}
	poisson, err := Poisson{Rate: 1, Count: 50, Sizes: Exponential{Mean: 1e-310}, Curve: PowerLaw{P: 0.5}}.Jobs(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		jobs []Job
		pol  Policy
		want string // in the error
	}{
		{"tiny/equi", tiny, Equi{}, `job "tiny": size 5e-324 s, 5e-324 s of work left at rate 2`},
		{"tiny/fifo", tiny, FIFO{}, `job "tiny"`},
		{"tiny/fifo-general", tiny, hideQueueing(FIFO{}), `job "tiny"`},
		{"poisson/equi", poisson, Equi{}, "policy equi"},
	} {
		for _, integer := range []bool{false, true} {
			done := make(chan error, 1)
			go func() {
				_, err := Simulate(c.jobs, c.pol, Settings{Servers: 4, Integer: integer})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNoProgress) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s integer=%v: err = %v, want ErrNoProgress with %q", c.name, integer, err, c.want)
				}
			case <-time.After(20 * time.Second):
				// as in TestSimulateRefusesNonFiniteSpeedup: end the
				// binary, the stuck loop would spin on
				debug.SetTraceback("all")
				panic(fmt.Sprintf("%s integer=%v: Simulate did not return in 20 s", c.name, integer))
			}
		}
	}
}

// The span (and the utilization, arrival rate and mean number in the
// system that divide by it) is summed as the responses are, not read off
// the clock: at 1e12 s the clock resolves 1.2e-4 s, and two jobs of 1e-6
// and 2e-6 s arriving there had a span of 0 and a utilization of 0 under
// every policy, their servers busy.
//
// Two servers, p = 0.5 (1 worker: rate 1; 2 workers: rate sqrt 2):
//   - fcfs-rigid, both at 1e12 on 1 worker each: a leaves after 1e-6 s, b
//     after 2e-6 s. Span 2e-6; busy 2 x 1e-6 + 1 x 1e-6 = 3e-6
//     worker-s, utilization 3e-6 / (2 x 2e-6) = 0.75; jobs in system
//     3e-6 / 2e-6 = 1.5; arrival rate 2 / 2e-6 = 1e6/s.
//   - equi, fractional: 1 worker each until a leaves at 1e-6; b's last
//     1e-6 s of work on 2 workers takes 1e-6 / sqrt 2 = 7.0711e-7 s. Span
//     1.70711e-6, utilization 1, in system (2e-6 + 7.0711e-7) /
//     1.70711e-6 = 1.58579, arrival rate 2 / 1.70711e-6 = 1.17157e6/s.
//   - fcfs-rigid, a at 1e12 and c at 1e12 + 0.5 (an idle gap): span
//     0.5 + 1e-6 = 0.500001 (the clock lost a's 1e-6 s, and said 0.5);
//     busy 2e-6, utilization 2e-6 / (2 x 0.500001) = 1.999996e-6; in
//     system 2e-6 / 0.500001 = 3.999992e-6; arrival rate 2 / 0.500001.
func TestSimulateSpanAtLargeClock(t *testing.T) {
	p := PowerLaw{P: 0.5}
	both := []Job{{ID: "a", Arrival: 1e12, Size: 1e-6, Curve: p}, {ID: "b", Arrival: 1e12, Size: 2e-6, Curve: p}}
	gap := []Job{{ID: "a", Arrival: 1e12, Size: 1e-6, Curve: p}, {ID: "c", Arrival: 1e12 + 0.5, Size: 1e-6, Curve: p}}
	for _, c := range []struct {
		name                      string
		jobs                      []Job
		pol                       Policy
		integer                   bool
		span, util, inSys, lambda float64
	}{
		{"both/fcfs-rigid", both, FCFSRigid{}, true, 2e-6, 0.75, 1.5, 1e6},
		{"both/fcfs-rigid-general", both, hideQueueing(FCFSRigid{}), true, 2e-6, 0.75, 1.5, 1e6},
		{"both/equi", both, Equi{}, false, 1e-6 + 1e-6/math.Sqrt2, 1, (2e-6 + 1e-6/math.Sqrt2) / (1e-6 + 1e-6/math.Sqrt2), 2 / (1e-6 + 1e-6/math.Sqrt2)},
		{"gap/fcfs-rigid", gap, FCFSRigid{}, true, 0.500001, 2e-6 / (2 * 0.500001), 2e-6 / 0.500001, 2 / 0.500001},
	} {
		r, err := Simulate(c.jobs, c.pol, Settings{Servers: 2, Integer: c.integer})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			what      string
			got, want float64
		}{{"span", r.Span, c.span}, {"utilization", r.Utilization, c.util}, {"in system", r.MeanInSystem, c.inSys}, {"arrival rate", r.ArrivalRate, c.lambda}} {
			if relErr(q.got, q.want) > 1e-9 {
				t.Errorf("%s: %s %.6g, want %.6g", c.name, q.what, q.got, q.want)
			}
		}
		// Little's law holds as it does at a fine clock
		if e := relErr(r.MeanInSystem, r.ArrivalRate*r.MeanResponse); e > 1e-9 {
			t.Errorf("%s: L = %g, lambda W = %g", c.name, r.MeanInSystem, r.ArrivalRate*r.MeanResponse)
		}
	}
}

// The slowdown of a job is its response over the work it did (its size
// when it runs to the end). One server, p = 1, jobs 10 s apart with sizes
// at most 5 s: each runs alone at rate 1, so its response is its work and
// its slowdown exactly 1, early stop or not. With EarlyStop = 1 every job
// stops after a fraction (0, 1] of its size: the response is then the work,
// not the size, and Response/Size would fall below 1. On a loaded stream
// (load 0.9, early stops) Slowdown is still Response/Work job by job.
func TestSlowdownIsResponseOverWork(t *testing.T) {
	var alone []Job
	for i := range 20 {
		alone = append(alone, Job{ID: fmt.Sprint(i), Arrival: 10 * float64(i), Size: 1 + float64(i%5), Curve: PowerLaw{1}})
	}
	for _, stop := range []float64{0, 1} {
		r, err := Simulate(alone, FIFO{}, Settings{Servers: 1, EarlyStop: stop, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		stopped := 0
		for _, j := range r.Jobs {
			if j.Work < j.Size*(1-1e-9) {
				stopped++
			}
			if relErr(j.Response, j.Work) > 1e-12 || relErr(j.Slowdown, 1) > 1e-12 {
				t.Errorf("early stop %g: job %s alone, size %g, work %g: response %g, slowdown %g, want %g and 1",
					stop, j.ID, j.Size, j.Work, j.Response, j.Slowdown, j.Work)
			}
		}
		if stop == 1 && stopped < len(alone)/2 {
			t.Fatalf("early stop 1: %d of %d jobs stopped early: the case tests nothing", stopped, len(alone))
		}
		if relErr(r.MeanSlowdown, 1) > 1e-12 {
			t.Errorf("early stop %g: mean slowdown %g, want 1", stop, r.MeanSlowdown)
		}
	}

	jobs, err := Poisson{Rate: 0.9, Count: 2000, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{1}}.Jobs(5)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []Policy{FIFO{}, SRPT{}, Equi{}} {
		r, err := Simulate(jobs, pol, Settings{Servers: 1, EarlyStop: 0.5, Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		stopped, wrong, mean := 0, 0, 0.0
		for _, j := range r.Jobs {
			if j.Work < j.Size*(1-1e-9) {
				stopped++
			}
			if relErr(j.Slowdown, j.Response/j.Work) > 1e-12 {
				if wrong++; wrong == 1 {
					t.Errorf("%s: job %s: slowdown %g, want response %g / work %g = %g (size %g)",
						pol.Name(), j.ID, j.Slowdown, j.Response, j.Work, j.Response/j.Work, j.Size)
				}
			}
			mean += j.Response / j.Work
		}
		if wrong > 1 {
			t.Errorf("%s: %d of %d jobs with a slowdown other than response/work", pol.Name(), wrong, len(jobs))
		}
		if stopped == 0 {
			t.Fatalf("%s: no job stopped early: the case tests nothing", pol.Name())
		}
		if mean /= float64(len(jobs)); relErr(r.MeanSlowdown, mean) > 1e-9 {
			t.Errorf("%s: mean slowdown %g, want the mean of response/work %g", pol.Name(), r.MeanSlowdown, mean)
		}
	}
}

// P50 and P99 of the responses are quantiles by linear interpolation, type
// 7 (quantile in sim.go): for n sorted values x[0..n-1], h = q (n - 1) and
// Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]). One server,
// p = 1, 100 jobs of sizes 1..100 (in the shuffled order 37 i mod 101)
// arriving 200 s apart: each runs alone, so the responses are exactly
// 1, 2, ..., 100 (x[i] = i + 1).
//
//	P50: h = 0.5 x 99 = 49.5:  x[49] + 0.5 (x[50] - x[49]) = 50 + 0.5 = 50.5
//	P99: h = 0.99 x 99 = 98.01: x[98] + 0.01 (x[99] - x[98]) = 99 + 0.01 = 99.01
//	mean: (1 + 100)/2 = 50.5
//
// (A P99 taken at 0.9 would be h = 89.1: 90.1.)
func TestResponseQuantiles(t *testing.T) {
	var jobs []Job
	for i := 1; i <= 100; i++ {
		jobs = append(jobs, Job{ID: fmt.Sprint(i), Arrival: 200 * float64(i), Size: float64(37 * i % 101), Curve: PowerLaw{1}})
	}
	r, err := Simulate(jobs, FIFO{}, Settings{Servers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range r.Jobs {
		if j.Response != j.Size {
			t.Fatalf("job %s alone: response %g, want its size %g", j.ID, j.Response, j.Size)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"P50", r.P50Response, 50.5},
		{"P99", r.P99Response, 99.01},
		{"mean", r.MeanResponse, 50.5},
	} {
		if relErr(c.got, c.want) > 1e-12 {
			t.Errorf("%s response %.15g, want %g", c.name, c.got, c.want)
		}
	}
}
