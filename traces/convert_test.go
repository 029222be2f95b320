package traces

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertModeAgreesWithPS: a tfevents or chrome run is never written as
// a parameter-server mode (async, the canonical default, or sync) with ps 0,
// nor as allreduce with parameter servers.
func TestConvertModeAgreesWithPS(t *testing.T) {
	chrome := filepath.Join("testdata", "chrome", "pytorch_profiler.json")
	tfev := filepath.Join("testdata", "tfevents", "events.out.tfevents.1000.sample")
	cases := []struct {
		name, format, in string
		opts             ConvertOptions
		mode             string // written to runs.csv (and throughput.csv); "" = async
		warn, err        string
	}{
		{"chrome neither", "chrome", chrome, ConvertOptions{Batch: 32}, "allreduce", "no --ps and no --mode: written as mode allreduce", ""},
		{"tfevents neither", "tfevents", tfev, ConvertOptions{Batch: 32}, "allreduce", "no --ps and no --mode", ""},
		// --ps alone: async, as an empty mode is read beside shards, and
		// said (a sync job converted so was read as async without a word)
		{"chrome ps only", "chrome", chrome, ConvertOptions{Batch: 32, PS: 2}, "async", "--ps 2 and no --mode: written as mode async", ""},
		{"tfevents ps only", "tfevents", tfev, ConvertOptions{Batch: 32, PS: 2}, "async", "a synchronous parameter-server job needs --mode sync", ""},
		{"chrome allreduce", "chrome", chrome, ConvertOptions{Batch: 32, Mode: "allreduce"}, "allreduce", "", ""},
		{"tfevents sync with ps", "tfevents", tfev, ConvertOptions{Batch: 32, Mode: "sync", PS: 1}, "sync", "", ""},
		{"chrome async without ps", "chrome", chrome, ConvertOptions{Batch: 32, Mode: "async"}, "", "", "mode async with ps 0"},
		{"tfevents sync without ps", "tfevents", tfev, ConvertOptions{Batch: 32, Mode: "sync"}, "", "", "mode sync with ps 0"},
		{"chrome allreduce with ps", "chrome", chrome, ConvertOptions{Batch: 32, Mode: "allreduce", PS: 2}, "", "", "mode allreduce with ps 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, warns, err := Convert(c.format, c.in, c.opts)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || res.Trace != nil {
					t.Fatalf("error %v (trace %v), want %q and no trace", err, res.Trace != nil, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var modeWarns []string
			for _, w := range warns {
				if strings.Contains(w.Error(), "--mode") {
					modeWarns = append(modeWarns, w.Error())
				}
			}
			if c.warn == "" && len(modeWarns) > 0 || c.warn != "" && (len(modeWarns) != 1 || !strings.Contains(modeWarns[0], c.warn)) {
				t.Errorf("mode warnings %q, want %q", modeWarns, c.warn)
			}
			tr := res.Trace
			if len(tr.Runs) != 1 || tr.Runs[0].Mode != c.mode {
				t.Fatalf("runs %+v, want one of mode %q", tr.Runs, c.mode)
			}
			for _, r := range tr.Throughput {
				if r.Mode != c.mode || r.PS != c.opts.PS {
					t.Errorf("throughput row mode %q ps %d, want %q and %d", r.Mode, r.PS, c.mode, c.opts.PS)
				}
			}
			for _, s := range tr.Steps {
				if s.PS != c.opts.PS {
					t.Fatalf("step ps %d, want %d", s.PS, c.opts.PS)
				}
			}
		})
	}
}
