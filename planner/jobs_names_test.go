package planner

import (
	"strings"
	"testing"
)

// A job name with a control character (not a quoted field's tab or line
// break) or bytes that are not UTF-8 is refused at its line and column (a
// NUL went into plan's tables as it was).
func TestReadJobsNamesAreText(t *testing.T) {
	for _, c := range []struct{ job, want string }{
		{"a\x00", `jobs.csv:2:1: job: "a\x00" holds the control character U+0000 at byte 2`},
		{`"a` + "\x1b" + `b"`, `jobs.csv:2:1: job: "a\x1bb" holds the control character U+001B at byte 2`},
		{"a\xff", `jobs.csv:2:1: job: "a\xff" is not valid UTF-8`},
	} {
		_, err := ReadJobs(strings.NewReader("job,arrival,size,p\n"+c.job+",0,100,0.5\n"), "jobs.csv", nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("job %q: error %v, want %q", c.job, err, c.want)
		}
	}
	if _, err := ReadJobs(strings.NewReader("job,arrival,size,p\nrésnet-50 (8 GPUs),0,100,0.5\n"), "jobs.csv", nil); err != nil {
		t.Errorf("a UTF-8 name: %v", err)
	}
}
