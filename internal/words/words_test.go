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

func TestEither(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want string
	}{
		{nil, ""}, {[]int{4}, "4"}, {[]int{2, 1, 2}, "1 or 2"}, {[]int{8, 1, 2, 1}, "1, 2 or 8"},
	} {
		if got := Either(c.xs); got != c.want {
			t.Errorf("Either(%v) = %q, want %q", c.xs, got, c.want)
		}
	}
}

func TestAnd(t *testing.T) {
	for _, c := range []struct {
		s    []string
		want string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := And(c.s); got != c.want {
			t.Errorf("And(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 15687: "15,687", 1234567: "1,234,567", -1200: "-1,200", -999: "-999"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFirstOf(t *testing.T) {
	s := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		s    []string
		most int
		want string
	}{{nil, 2, ""}, {s[:1], 2, "a"}, {s[:2], 2, "a, b"}, {s, 2, "a, b and 2 more"}, {s, 3, "a, b, c and 1 more"}, {s, 4, "a, b, c, d"}} {
		if got := FirstOf(c.s, c.most); got != c.want {
			t.Errorf("FirstOf(%q, %d) = %q, want %q", c.s, c.most, got, c.want)
		}
	}
}
