package decimal

import (
	"strconv"
	"testing"
)

func TestPlain(t *testing.T) {
	for _, s := range []string{"0", "-1", "+2.5", "1.", ".5", "1e3", "2.5E-3", "1e+10", "007"} {
		if !Plain(s) {
			t.Errorf("%q: want a plain decimal", s)
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			t.Errorf("%q: plain but strconv refuses it: %v", s, err)
		}
	}
	// strconv.ParseFloat reads all but the last few of these: Plain reads none.
	for _, s := range []string{"", "+", ".", "1_000", "0x1p4", "0x10", "Inf", "NaN", "1e", "1e+", "1.2.3", "1e3.5", "--1", " 1", "1 ", "١"} {
		if Plain(s) {
			t.Errorf("%q: want not plain", s)
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"1.5e3", "1_0", "0x1p4", "-.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Plain(s) {
			if _, err := strconv.ParseFloat(s, 64); err != nil && err.(*strconv.NumError).Err != strconv.ErrRange {
				t.Errorf("%q: plain but strconv: %v", s, err)
			}
		}
	})
}

func TestUnderflows(t *testing.T) {
	for _, c := range []struct {
		s    string
		v    float64
		want bool
	}{{"1e-400", 0, true}, {"0.1e-399", 0, true}, {"-5E-999", 0, true}, {"0", 0, false}, {"0.000e5", 0, false}, {"-0", 0, false}, {"1e-5", 1e-5, false}, {"0e-400", 0, false}} {
		if got := Underflows(c.s, c.v); got != c.want {
			t.Errorf("Underflows(%q, %g) = %v, want %v", c.s, c.v, got, c.want)
		}
	}
}
