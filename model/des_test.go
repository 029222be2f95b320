package model

// An independent discrete-event simulator of closed networks, used only by
// tests to check MVA, the residual-service correction, the fork-join
// approximation and the staleness formulas. It shares nothing with the
// solvers: it moves N customers through FCFS stations with an event heap and
// counts what happens.

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
)

// desStation is one FCFS station: mean service time per visit, s, its SCV
// (0 deterministic, 1 exponential, otherwise gamma), and its number of
// servers (0 = infinite: a delay).
type desStation struct {
	name    string
	mean    float64
	scv     float64
	servers int
}

// desShard names the station whose completion is a read of a shard and the
// one whose completion applies an update to it.
type desShard struct{ read, apply int }

// desSpec is a closed network: each cycle goes through stages in order; a
// stage is a fork of branches (each a sequence of stations) that all must
// finish before the next stage (a join). A stage with one branch of one
// station is a plain visit.
type desSpec struct {
	stations []desStation
	stages   [][][]int
	shards   []desShard
}

type desResult struct {
	X         float64   // cycles per second after warm-up
	Staleness float64   // mean over measured applies
	Hist      []float64 // P(staleness = s)
	Cycles    int
	RelSE     float64 // relative standard error of X from 20 batch means
}

type desEvent struct {
	t    float64
	task int // index into sim.tasks
	seq  uint64
}

type desHeap []desEvent

func (h desHeap) Len() int { return len(h) }
func (h desHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}
func (h desHeap) Swap(i, j int)     { h[i], h[j] = h[j], h[i] }
func (h *desHeap) Push(x any)       { *h = append(*h, x.(desEvent)) }
func (h *desHeap) Pop() any         { o := *h; e := o[len(o)-1]; *h = o[:len(o)-1]; return e }
func (h desHeap) peekTime() float64 { return h[0].t }

// desTask is one customer's progress along one branch of its current stage.
type desTask struct {
	cust, branch, pos int
}

type desSim struct {
	spec    desSpec
	rng     *rand.Rand
	now     float64
	seq     uint64
	events  desHeap
	tasks   []desTask
	free    []int
	queue   [][]int // waiting tasks per station, FIFO
	busy    []int
	stage   []int // current stage per customer
	pending []int // branches still running per customer

	applied  []int   // applies per shard so far
	readAt   [][]int // per customer, per shard: applied[shard] at its last read
	measure  bool
	hist     []float64
	stalSum  float64
	stalN    float64
	cycles   int
	shardsOf map[int][]int // station -> shards it reads
	applyOf  map[int][]int // station -> shards it applies
}

// sample draws a service time with the given mean and SCV.
func (s *desSim) sample(mean, scv float64) float64 {
	switch {
	case mean == 0:
		return 0
	case scv == 0:
		return mean
	case scv == 1:
		return mean * s.rng.ExpFloat64()
	}
	return mean * scv * gammaSample(s.rng, 1/scv)
}

// gammaSample draws Gamma(k, 1) by Marsaglia and Tsang (2000).
func gammaSample(r *rand.Rand, k float64) float64 {
	if k < 1 {
		return gammaSample(r, k+1) * math.Pow(r.Float64(), 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

func (s *desSim) station(t desTask) int {
	return s.spec.stages[s.stage[t.cust]][t.branch][t.pos]
}

// arrive puts task i at its station: into service if a server is free.
func (s *desSim) arrive(i int) {
	k := s.station(s.tasks[i])
	st := s.spec.stations[k]
	if st.servers == 0 || s.busy[k] < st.servers {
		s.busy[k]++
		s.schedule(i, s.sample(st.mean, st.scv))
		return
	}
	s.queue[k] = append(s.queue[k], i)
}

func (s *desSim) schedule(i int, d float64) {
	s.seq++
	heap.Push(&s.events, desEvent{t: s.now + d, task: i, seq: s.seq})
}

func (s *desSim) newTask(t desTask) int {
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.tasks[i] = t
		return i
	}
	s.tasks = append(s.tasks, t)
	return len(s.tasks) - 1
}

// startStage forks customer c's current stage.
func (s *desSim) startStage(c int) {
	br := s.spec.stages[s.stage[c]]
	s.pending[c] = len(br)
	for b := range br {
		s.arrive(s.newTask(desTask{cust: c, branch: b}))
	}
}

// complete handles the end of service of task i.
func (s *desSim) complete(i int) {
	t := s.tasks[i]
	k := s.station(t)
	st := s.spec.stations[k]
	// Free the server, start the next in line.
	s.busy[k]--
	if st.servers != 0 && len(s.queue[k]) > 0 {
		j := s.queue[k][0]
		s.queue[k] = s.queue[k][1:]
		s.busy[k]++
		s.schedule(j, s.sample(st.mean, st.scv))
	}
	for _, sh := range s.applyOf[k] {
		if s.measure {
			v := float64(s.applied[sh] - s.readAt[t.cust][sh])
			s.stalSum += v
			s.stalN++
			for len(s.hist) <= int(v) {
				s.hist = append(s.hist, 0)
			}
			s.hist[int(v)]++
		}
		s.applied[sh]++
	}
	for _, sh := range s.shardsOf[k] {
		s.readAt[t.cust][sh] = s.applied[sh]
	}
	br := s.spec.stages[s.stage[t.cust]][t.branch]
	if t.pos+1 < len(br) {
		s.tasks[i].pos++
		s.arrive(i)
		return
	}
	s.free = append(s.free, i)
	c := t.cust
	s.pending[c]--
	if s.pending[c] > 0 {
		return
	}
	s.stage[c]++
	if s.stage[c] == len(s.spec.stages) {
		s.stage[c] = 0
		s.cycles++
	}
	s.startStage(c)
}

// simulate runs spec with N customers for warm cycles and then for cycles
// more, measured, from the given seed.
func simulate(spec desSpec, N, warm, cycles int, seed uint64) desResult {
	K := len(spec.stations)
	s := &desSim{
		spec: spec, rng: rand.New(rand.NewPCG(seed, 0x5eed)),
		queue: make([][]int, K), busy: make([]int, K),
		stage: make([]int, N), pending: make([]int, N),
		applied: make([]int, len(spec.shards)), readAt: make([][]int, N),
		shardsOf: map[int][]int{}, applyOf: map[int][]int{},
	}
	for sh, d := range spec.shards {
		s.shardsOf[d.read] = append(s.shardsOf[d.read], sh)
		s.applyOf[d.apply] = append(s.applyOf[d.apply], sh)
	}
	for c := range N {
		s.readAt[c] = make([]int, len(spec.shards))
		s.startStage(c)
	}
	step := func() {
		e := heap.Pop(&s.events).(desEvent)
		s.now = e.t
		s.complete(e.task)
	}
	for s.cycles < warm {
		step()
	}
	s.measure = true
	const nb = 20
	per := cycles / nb
	var bx [nb]float64
	t0 := s.now
	for b := range nb {
		c0, tb := s.cycles, s.now
		for s.cycles < c0+per {
			step()
		}
		bx[b] = float64(s.cycles-c0) / (s.now - tb)
	}
	res := desResult{Cycles: s.cycles - warm}
	res.X = float64(res.Cycles) / (s.now - t0)
	var m, v float64
	for _, x := range bx {
		m += x / nb
	}
	for _, x := range bx {
		v += (x - m) * (x - m) / (nb - 1)
	}
	res.RelSE = math.Sqrt(v/nb) / m
	if s.stalN > 0 {
		res.Staleness = s.stalSum / s.stalN
		res.Hist = s.hist
		for i := range res.Hist {
			res.Hist[i] /= s.stalN
		}
	}
	return res
}

// desFromNetwork simulates n as a tandem: think (delay with SCV thinkSCV),
// then each station in order. Station SCVs are taken from n.Stations
// (scvOverride >= 0 replaces them all).
func desFromNetwork(n Network, thinkSCV, scvOverride float64) desSpec {
	spec := desSpec{stations: []desStation{{name: "think", mean: n.Z, scv: thinkSCV}}}
	spec.stages = [][][]int{{{0}}}
	for _, st := range n.Stations {
		scv := st.SCV
		if scvOverride >= 0 {
			scv = scvOverride
		}
		srv := st.Servers
		if srv < 1 {
			srv = 1
		}
		if st.Delay {
			srv = 0
		}
		spec.stations = append(spec.stations, desStation{name: st.Name, mean: st.D, scv: scv, servers: srv})
		spec.stages = append(spec.stages, [][]int{{len(spec.stations) - 1}})
	}
	return spec
}

// desFromAsyncPS builds the job a at c directly from its fields, with the
// real structure: a fork-join over the P shards for Parallel, one station
// per shard and phase, compute shared by SharedCores*Nodes servers when set.
// The SCVs are the measured ones (a's fields), whatever a.Correction says.
func desFromAsyncPS(a AsyncPS, c Config) desSpec {
	P := max(c.PS, 1)
	b := a.Batch
	if c.Batch > 0 {
		b = c.Batch
	}
	z := a.Compute0 + a.Compute1*b
	x := a.Latency
	if a.Bandwidth > 0 {
		x += a.ParamBytes / float64(P) / a.Bandwidth
	}
	ap := a.Apply / float64(P)
	var spec desSpec
	add := func(st desStation) int {
		spec.stations = append(spec.stations, st)
		return len(spec.stations) - 1
	}
	cores := 0
	if a.SharedCores > 0 {
		nodes := c.Nodes
		if nodes < 1 {
			nodes = c.Workers
		}
		cores = a.SharedCores * nodes
	}
	spec.stages = append(spec.stages, [][]int{{add(desStation{name: "compute", mean: z, scv: a.SCVCompute, servers: cores})}})
	push := make([]int, P)
	apply := make([]int, P)
	pull := make([]int, P)
	for i := range P {
		push[i] = add(desStation{name: fmt.Sprintf("push[%d]", i+1), mean: x, scv: a.SCVPush, servers: 1})
		apply[i] = add(desStation{name: fmt.Sprintf("apply[%d]", i+1), mean: ap, scv: a.SCVApply, servers: 1})
		pull[i] = add(desStation{name: fmt.Sprintf("pull[%d]", i+1), mean: x, scv: a.SCVPull, servers: 1})
		spec.shards = append(spec.shards, desShard{read: pull[i], apply: apply[i]})
	}
	if a.Sharding == Parallel {
		var fork [][]int
		for i := range P {
			fork = append(fork, []int{push[i], apply[i], pull[i]})
		}
		spec.stages = append(spec.stages, fork)
		return spec
	}
	for i := range P {
		spec.stages = append(spec.stages, [][]int{{push[i]}}, [][]int{{apply[i]}})
	}
	for i := range P {
		spec.stages = append(spec.stages, [][]int{{pull[i]}})
	}
	return spec
}
