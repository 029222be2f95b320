package main

import (
	"fmt"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/words"
)

// linkCapacity is the capacity of one shard's links in an asynchronous
// parameter-server job, B / S updates per second (each update moves the
// model's S bytes through every shard's link at B bytes/s each way: P
// shards carry P B / S), for a model of a fitted form that does not model
// the links: every family but mva, whose network holds the bound itself
// (fit.Model.Saturation). ok is false where no bound applies: not async,
// mva, runs.csv without param_bytes or bandwidth, or fitted data that
// themselves pass the bound (then runs.csv's figures are not the links'
// capacity).
func linkCapacity(m *fit.Model) (perShard float64, ok bool) {
	s, b := float64(m.Reference.ParamBytes), m.Reference.Bandwidth
	if m.Family == "mva" || m.Mode != "async" || !(s > 0) || !(b > 0) {
		return 0, false
	}
	for _, d := range m.Data.Configurations {
		bd := b
		if d.Bandwidth > 0 {
			bd = d.Bandwidth
		}
		if d.PS >= 1 && d.StepsPerS > float64(d.PS)*bd/s*(1+1e-9) {
			return 0, false
		}
	}
	return b / s, true
}

// linkBoundWarning warns at the first of rows (workers, shards, steps/s
// and its upper end) whose steps/s, or else whose upper end, is above the
// links' capacity (linkCapacity times the row's shards); "" when none is.
func linkBoundWarning(m *fit.Model, rows []predictRow) string {
	perShard, ok := linkCapacity(m)
	if !ok {
		return ""
	}
	hiOnly := -1
	for i, r := range rows {
		bound := float64(r.PS) * perShard
		if r.PS < 1 {
			continue
		}
		if aboveLinks(r.StepsPerS, bound) {
			return linkBoundText(m, r, bound, fmt.Sprintf("predicts %.4g steps/s", r.StepsPerS))
		}
		if hiOnly < 0 && aboveLinks(r.StepsPerSHi, bound) {
			hiOnly = i
		}
	}
	if hiOnly >= 0 {
		r := rows[hiOnly]
		return linkBoundText(m, r, float64(r.PS)*perShard, fmt.Sprintf("gives an interval up to %.4g steps/s", r.StepsPerSHi))
	}
	return ""
}

func linkBoundText(m *fit.Model, r predictRow, bound float64, what string) string {
	return fmt.Sprintf("at %s and %s the %s form %s, above the %.4g updates/s the links can carry (P B / S: %s x %.4g B/s / %d B, runs.csv's bandwidth and param_bytes): the form does not model the links, so beyond the data nothing holds it under their capacity (the mva family does: --family mva)",
		workersWord(r.Workers), words.Count(r.PS, "shard"), m.Family, what, bound, words.Count(r.PS, "shard"), m.Reference.Bandwidth, m.Reference.ParamBytes)
}

// aboveLinks says whether v steps/s pass bound, the shards' links' most,
// beyond rounding (predict's rows and their warning ask it alike).
func aboveLinks(v, bound float64) bool { return v > bound*(1+1e-9) }
