// Package model predicts the throughput, staleness and convergence of
// distributed SGD jobs: closed queueing networks solved by Mean Value Analysis
// for asynchronous parameter servers, the alternative families it is compared
// with, statistical-efficiency laws, and the speedup curves the planner uses.
// It is pure: value types and functions, no I/O.
package model
