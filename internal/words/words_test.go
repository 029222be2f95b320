package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		what string
		want string
	}{
		{0, "job", "0 jobs"}, {1, "job", "1 job"}, {2, "row", "2 rows"}, {-1, "worker", "-1 workers"}, {1000000, "server", "1000000 servers"},
	} {
		if got := Count(c.n, c.what); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.what, got, c.want)
		}
	}
}
