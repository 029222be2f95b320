// Package planner allocates workers among many training jobs (heSRPT and the
// policies it is compared with) and simulates a cluster with arrivals.
package planner
