package traces

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// floatCases are plain decimals for parseFloat's Eisel-Lemire path (16 to
// 19 digits after the leading zeros) and around it: the shortest forms of
// random float64s ('f', -1; 17 digits and fewer), random strings of 14 to
// 22 digits with a point anywhere and leading zeros, values near the
// half-way points between two float64s (the wider approximation and the
// half-way test), and signs.
func floatCases(rng *rand.Rand, n int) []string {
	cases := []string{"0.07234567891234567", "-0.07234567891234567", "1234567890123456", "12345678901234567890",
		"9999999999999999999", "-9999999999999999999", "99999999999999999999", "0.0000000000000000000000001234567890123456",
		"0000000000000000000000.5", "-0.000000000000000000", "0.00000000000000000000000000000", "1.0000000000000000",
		"9007199254740993", "9007199254740992.5", "4503599627370496.5", "4503599627370497.5", "0.30000000000000004",
		"0.1000000000000000055511151231257827", "0.10000000000000000555", "1.7976931348623157", "123456789.123456789",
		"1.00000000000000011102230246251565404", "1.0000000000000001110", "1.0000000000000001111", "1.0000000000000001109"}
	digits := "0123456789"
	for range n {
		v := math.Float64frombits(rng.Uint64())
		if !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < 1e22 && math.Abs(v) > 1e-10 {
			cases = append(cases, strconv.FormatFloat(v, 'f', -1, 64))
		}
		u := rng.Float64() * math.Pow(10, float64(rng.IntN(24)-8))
		cases = append(cases, strconv.FormatFloat(u, 'f', -1, 64), strconv.FormatFloat(-u, 'f', -1, 64))
		// a half-way point of u's float64 and the next, in decimal,
		// cut to 16-20 digits, and one digit up and down
		mid := strconv.FormatFloat(u/2+math.Nextafter(u, math.Inf(1))/2, 'f', -1, 64)
		if len(mid) > 0 {
			exact := strconv.FormatFloat(u, 'f', 40, 64)
			cut := exact[:min(len(exact), 16+rng.IntN(6))]
			cases = append(cases, mid, cut, strings.TrimRight(cut, "0"))
		}
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteByte('-')
		}
		for range rng.IntN(4) {
			b.WriteByte('0')
		}
		k := 14 + rng.IntN(9)
		dot := rng.IntN(k + 1)
		for i := range k {
			if i == dot {
				b.WriteByte('.')
			}
			b.WriteByte(digits[rng.IntN(10)])
		}
		cases = append(cases, b.String())
	}
	return cases
}

// checkParseFloat fails t unless parseFloat(s) is strconv.ParseFloat(s, 64),
// bit for bit and error for error, for a plain decimal s.
func checkParseFloat(t *testing.T, s string) {
	t.Helper()
	got, gerr := parseFloat(s)
	want, werr := strconv.ParseFloat(s, 64)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseFloat(%q) = %v (%#x), %v; strconv %v (%#x), %v", s, got, math.Float64bits(got), gerr, want, math.Float64bits(want), werr)
	}
}

// TestParseFloatEiselLemire: parseFloat is strconv.ParseFloat bit for bit
// on 400,000 plain decimals, most of them 16 to 19 digits long (eisel.go).
func TestParseFloatEiselLemire(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 3))
	for _, s := range floatCases(rng, 100_000) {
		checkParseFloat(t, s)
	}
}

// TestEiselLemireTable: eiselLemire64, where it gives a value, gives
// strconv's for man * 10^exp10, at every exponent of its table and outside
// it (where it gives none).
func TestEiselLemireTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4))
	n := 0
	for e := eiselMinExp10 - 2; e <= 2; e++ {
		for i := range 5000 {
			man := rng.Uint64() >> rng.UintN(64)
			if i < 64 {
				man = 1 << i
			}
			neg := rng.IntN(2) == 0
			got, ok := eiselLemire64(man, e, neg)
			if !ok {
				if man != 0 && e >= eiselMinExp10 && e <= 0 {
					n++ // undecided: parseFloat calls strconv
				}
				continue
			}
			if man != 0 && (e < eiselMinExp10 || e > 0) {
				t.Fatalf("eiselLemire64(%d, %d) = %v outside the table", man, e, got)
			}
			s := strconv.FormatUint(man, 10) + "e" + strconv.Itoa(e)
			if neg {
				s = "-" + s
			}
			want, err := strconv.ParseFloat(s, 64)
			if err != nil || math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("eiselLemire64(%d, %d, %v) = %v (%#x); strconv.ParseFloat(%q) = %v (%#x), %v", man, e, neg, got, math.Float64bits(got), s, want, math.Float64bits(want), err)
			}
		}
	}
	if total := 5000 * (1 - eiselMinExp10); n > total/50 {
		t.Errorf("%d undecided conversions of %d: the algorithm decides almost all", n, total)
	}
}

// FuzzParseFloatStrconv: parseFloat against strconv.ParseFloat on any
// plain decimal (other strings: parseFloat's syntax check, tested in
// numbers_test.go).
func FuzzParseFloatStrconv(f *testing.F) {
	for _, s := range floatCases(rand.New(rand.NewPCG(33, 5)), 50) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !plainDecimal(s) {
			return
		}
		checkParseFloat(t, s)
	})
}

// FuzzParseFloatAny: on any string, parseFloat gives what
// parseFloatChecked (the syntax check, then strconv.ParseFloat: the path
// every string took before the fast paths) gives, its bits and its error's
// text; FuzzParseFloatStrconv covers the plain decimals only (a review,
// 2026-12-07).
func FuzzParseFloatAny(f *testing.F) {
	for _, s := range floatCases(rand.New(rand.NewPCG(33, 7)), 20) {
		f.Add(s)
	}
	for _, s := range []string{"", "-", ".", "-.", ".5", "5.", "+5", "1e5", "1_000", "0x1p3", "inf", "-Infinity", "NaN",
		"1.2.3", "12345678901234567890", "0.00000000000000000000000000001", "1e400", "4.9e-324", " 1", "1 ", "١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := parseFloat(s)
		want, werr := parseFloatChecked(s)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%q) = %v (%#x), %v; parseFloatChecked %v (%#x), %v", s, got, math.Float64bits(got), gerr, want, math.Float64bits(want), werr)
		}
	})
}

// plainDecimal reports whether s is [-]digits[.digits] (a point, and one
// digit at least, anywhere), the strings parseFloat converts itself.
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	dot, digits := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// BenchmarkParseFloat: parseFloat on the numbers of a steps.csv as
// WriteSteps writes them (strconv's shortest form: most of 16 and 17
// digits), and on short decimals (6 digits after the point).
func BenchmarkParseFloat(b *testing.B) {
	rng := rand.New(rand.NewPCG(33, 6))
	for _, c := range []struct {
		name string
		f    func(float64) string
	}{
		{"shortest", func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }},
		{"fixed6", func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }},
	} {
		ss := make([]string, 4096)
		for i := range ss {
			ss[i] = c.f((0.05 + 0.05*rng.ExpFloat64()) * math.Pow(10, float64(rng.IntN(4))))
		}
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := parseFloat(ss[i&4095]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
