// Package decimal holds the number grammar the readers of sgdplan's input
// files share.
package decimal

// Plain reports whether s is a plain decimal number: an optional sign,
// digits with at most one point (at least one digit), and an optional
// exponent (e or E, an optional sign, digits). Go's other syntax that
// strconv.ParseFloat reads ("1_000", "0x1p4", "Inf") is not: a reader that
// wants inf or nan tests them itself.
func Plain(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
	}
	if digits == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == len(s) {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Underflows reports whether v, read from the decimal text s, is a 0 that
// s is not: a nonzero digit before its exponent (1e-400, which a reader's
// "got 0" did not explain).
func Underflows(s string, v float64) bool {
	for i := 0; i < len(s) && s[i] != 'e' && s[i] != 'E'; i++ {
		if s[i] >= '1' && s[i] <= '9' {
			return v == 0
		}
	}
	return false
}
