package fit

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// A configuration is named in messages without its machines where the data
// do not say them: a table without a nodes column read "not scored:
// without w=1 ps=1 nodes=0, ...", as though it ran on none. Those that say
// them keep them.
func TestConfigLabelLeavesUnknownNodes(t *testing.T) {
	pts := tablePoints([]int{1, 2, 4}, []float64{100.0 / 32, 190.0 / 32, 350.0 / 32})
	_, _, note := looCVErrs(mustFamily(t, "pollux-async"), pts)
	if !strings.HasPrefix(note, "not scored: without w=1 ps=1, ") {
		t.Errorf("note %q", note)
	}
	p := Point{Config: model.Config{Workers: 2, PS: 1, Nodes: 2, Bandwidth: 1e9}}
	if got := p.label(); got != "w=2 ps=1 nodes=2 bw=1e+09" {
		t.Errorf("label %q", got)
	}
}

func mustFamily(t *testing.T, name string) Family {
	t.Helper()
	f, ok := LookupFamily(name)
	if !ok {
		t.Fatalf("no family %s", name)
	}
	return f
}
