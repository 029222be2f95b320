package model

// Config is one deployment of a training job: how many workers, how many
// parameter-server shards, over how many machines, with which mini-batch.
type Config struct {
	Workers   int     // workers (data-parallel replicas), >= 1
	PS        int     // parameter-server shards; 0 means none (all-reduce)
	Nodes     int     // machines the workers are spread over; 0 means one per worker
	Batch     float64 // per-worker mini-batch, samples; 0 means the model's own
	Bandwidth float64 // B/s per shard link and direction; 0 means the model's own
}

// Throughput is what every throughput family in this package provides.
type Throughput interface {
	// StepsPerSecond is the job-wide rate of gradient updates at c: for
	// asynchronous SGD the updates applied per second over all workers, for
	// synchronous SGD the synchronous steps per second.
	StepsPerSecond(c Config) float64
}
