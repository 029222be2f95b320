package main

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/planner"
)

// speedupEnd is one end of a fitted model's speedup interval as a curve:
// at whole k the low (or high) end of what predict prints for k workers at
// the model's reference shards (the bootstrap, the rival fits, the drift
// beyond the fitted configurations and the efficiency law's interval),
// linear between whole counts, k below 1 as Model.Speedup has it. The ends
// are memoised: the policies ask for the same counts again and again.
type speedupEnd struct {
	m    *fit.Model
	high bool
	memo *endMemo
}

// endMemo holds both ends of a model's speedup interval by count: one
// Predict gives both, and planEnds shares it between a model's two ends
// and among the policies (each end, and each policy's replay, predicted
// every count again: plan --policy all on 20,000 servers spent most of
// its time there).
type endMemo struct {
	mu sync.Mutex
	at map[int][2]float64
}

func newSpeedupEnd(m *fit.Model, high bool) *speedupEnd {
	return &speedupEnd{m: m, high: high, memo: &endMemo{at: map[int][2]float64{}}}
}

func (e *speedupEnd) at(k int) float64 {
	e.memo.mu.Lock()
	defer e.memo.mu.Unlock()
	v, ok := e.memo.at[k]
	if !ok {
		iv := e.m.Predict(model.Config{Workers: k}, math.NaN(), 1).Speedup
		v = [2]float64{iv.Lo, iv.Hi}
		e.memo.at[k] = v
	}
	if e.high {
		return v[1]
	}
	return v[0]
}

// FewestWorkers is the model's (planner.FittedFrom): the knee policy looks
// for the end's knee from the workers the model was fitted from, as for the
// fitted curve itself.
func (e *speedupEnd) FewestWorkers() int { return e.m.FewestWorkers() }

// Speedup implements planner.Speedup.
func (e *speedupEnd) Speedup(k float64) float64 {
	if !(k > 0) {
		return 0
	}
	if k <= 1 {
		return k
	}
	lo := math.Floor(k)
	s := e.at(int(lo))
	if k == lo {
		return s
	}
	return s + (k-lo)*(e.at(int(lo)+1)-s)
}

// planEnds are the jobs whose curves are fitted models, and the models.
type planEnds struct {
	models []*fit.Model
	ids    []string
	// ends are each model's low and high curves, made once: their memo
	// serves every policy's replay
	ends map[*fit.Model][2]*speedupEnd
	// known keeps the plans (ideal shares) made at the low and the high
	// ends by policy name, for numeric's search at each end (planReplay):
	// it replayed every heuristic there again
	known [2]map[string]planner.Result
}

// planFindEnds collects the fitted models behind jobs' curves (none: a
// zero planEnds).
func planFindEnds(jobs []planner.Job) planEnds {
	var e planEnds
	for _, j := range jobs {
		m, ok := j.Curve.(*fit.Model)
		if !ok {
			continue
		}
		e.ids = append(e.ids, j.ID)
		if !slices.Contains(e.models, m) {
			e.models = append(e.models, m)
		}
	}
	if len(e.models) > 0 {
		e.known = [2]map[string]planner.Result{{}, {}}
		e.ends = map[*fit.Model][2]*speedupEnd{}
		for _, m := range e.models {
			l := newSpeedupEnd(m, false)
			e.ends[m] = [2]*speedupEnd{l, {m: m, high: true, memo: l.memo}}
		}
	}
	return e
}

// jobs returns both copies of jobs with every fitted curve at one end of
// its interval: the low ends, then the high ends (other jobs as they are).
func (e planEnds) jobs(jobs []planner.Job) (low, high []planner.Job) {
	low, high = slices.Clone(jobs), slices.Clone(jobs)
	for _, m := range e.models {
		l, h := e.ends[m][0], e.ends[m][1]
		for k, j := range jobs {
			if j.Curve == planner.Speedup(m) {
				low[k].Curve, high[k].Curve = l, h
			}
		}
	}
	return low, high
}

// note is the line under plan's and simulate's tables that says what the
// ranges are; what is what was made again ("the plan made again").
func (e planEnds) note(what string) string {
	whose := "the fitted speedup of job " + cellText(e.ids[0]) + " at the low, then the high end of its"
	if len(e.ids) > 1 {
		whose = fmt.Sprintf("the fitted speedups of %d jobs (%s) at the low, then the high ends of their", len(e.ids), nameList(e.ids, 8))
	}
	return "ranges: " + what + " with " + whose + " " + e.levelText() + " interval at every worker count (predict's: measurement noise, rival fits, drift beyond the fitted configurations, the efficiency law's and the staleness's intervals); the least and most of the three, scenarios rather than a probability; the jobs' p are taken as exact"
}

// levelText is the coverage of the models' intervals, as predict prints it
// (each model's Level): "90%", or "80% to 95%" when the models differ.
func (e planEnds) levelText() string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range e.models {
		lo, hi = min(lo, m.Level), max(hi, m.Level)
	}
	if fmt.Sprintf("%.0f", 100*lo) == fmt.Sprintf("%.0f", 100*hi) {
		return fmt.Sprintf("%.0f%%", 100*lo)
	}
	return fmt.Sprintf("%.0f%% to %.0f%%", 100*lo, 100*hi)
}

// planReplay runs policy name (numeric: searched again, its warnings
// left to the plan on the fitted curves) on jobs with ideal shares. known
// (nil: none) keeps the heuristics' plans of these jobs for numeric, as in
// planRun.
func planReplay(jobs []planner.Job, n float64, name string, alpha float64, known map[string]planner.Result) (planner.Result, error) {
	pol, _, err := planPolicyFor(jobs, n, name, alpha, known)
	if err != nil {
		return planner.Result{}, err
	}
	r, err := planner.Simulate(jobs, pol, planner.Settings{Servers: n})
	if err == nil && known != nil && name != "numeric" {
		known[name] = r
	}
	return r, err
}

// planRanges fills p's ranges: policy p.Policy made again (ideal shares)
// with the fitted curves at the low and at the high ends of their
// intervals, each figure's least and most over those plans and p's own.
// When a plan at an end fails (a curve there the simulator refuses), p is
// left without ranges and the error says why.
func planRanges(p *planPolicy, jobs []planner.Job, n, alpha float64, e planEnds) error {
	if len(e.models) == 0 {
		return nil
	}
	low, high := e.jobs(jobs)
	// The two ends at once: each has its own curves (speedupEnd, its
	// memo under a lock), its own known map and its own simulations; the
	// fitted models they share are safe for concurrent use (fit's sweep
	// memo is locked). The low end's error is the one told, as when they
	// ran one after the other.
	var res [2]planner.Result
	var errs [2]error
	var wg sync.WaitGroup
	for i, js := range [][]planner.Job{low, high} {
		wg.Go(func() { res[i], errs[i] = planReplay(js, n, p.Policy, alpha, e.known[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s: no range: with the fitted curves at the %s ends of their intervals: %w", p.Policy, [2]string{"low", "high"}[i], err)
		}
	}
	p.MeanFlowRange = &[2]float64{p.MeanFlowTime, p.MeanFlowTime}
	p.MeanSlowdownRange = &[2]float64{p.MeanSlowdown, p.MeanSlowdown}
	p.P99FlowRange = &[2]float64{p.P99FlowTime, p.P99FlowTime}
	p.MakespanRange = &[2]float64{p.Makespan, p.Makespan}
	if p.MeanWeightedFlow > 0 {
		p.MeanWeightedFlowRange = &[2]float64{p.MeanWeightedFlow, p.MeanWeightedFlow}
	}
	for k := range p.Jobs {
		c := p.Jobs[k].Completion
		p.Jobs[k].CompletionRange = &[2]float64{c, c}
	}
	sw, _ := planWeights(jobs)
	for _, r := range res {
		widenRange(p.MeanFlowRange, r.MeanResponse)
		widenRange(p.MeanSlowdownRange, r.MeanSlowdown)
		widenRange(p.P99FlowRange, r.P99Response)
		widenRange(p.MakespanRange, lastCompletion(r))
		if p.MeanWeightedFlowRange != nil {
			widenRange(p.MeanWeightedFlowRange, r.WeightedFlow/sw)
		}
		for k, j := range r.Jobs {
			widenRange(p.Jobs[k].CompletionRange, j.Completion)
		}
	}
	return nil
}

// widenRange stretches r to hold v.
func widenRange(r *[2]float64, v float64) {
	r[0], r[1] = min(r[0], v), max(r[1], v)
}

// planRangeText writes a range as plan's tables do ("" for none).
func planRangeText(b *[2]float64) string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("[%.4g, %.4g]", b[0], b[1])
}
