package main

import (
	"slices"
	"testing"
)

// parseIntList's messages say what is wrong and what is expected: "1--3"
// was answered "a range runs from low to high (-3-1)", itself no valid
// range, and ",1" was answered `"": expected a whole number` without
// saying that the list has an empty item.
func TestParseIntListMessages(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1--3", `"1--3": the range's high end -3 is negative (expected whole numbers >= 1 at each end, low-high, like 1-64)`},
		{"1- -3", `"1- -3": the range's high end -3 is negative (expected whole numbers >= 1 at each end, low-high, like 1-64)`},
		{",1", `",1": item 1 of 2 is empty (expected whole numbers >= 1 or ranges of them, separated by commas, like 1,2,4 or 1-4,8)`},
		{"1,,2", `"1,,2": item 2 of 3 is empty (expected whole numbers >= 1 or ranges of them, separated by commas, like 1,2,4 or 1-4,8)`},
		{"1, ", `"1, ": item 2 of 2 is empty (expected whole numbers >= 1 or ranges of them, separated by commas, like 1,2,4 or 1-4,8)`},
		{" ", `" ": an empty list (expected whole numbers >= 1 or ranges of them, separated by commas, like 1,2,4 or 1-4,8)`},
		{"3-1", `"3-1": a range runs from low to high (1-3)`},
		{"-1", `"-1": expected whole numbers >= 1 (no negative counts)`},
	} {
		if got, err := parseIntList(c.in, 1); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, %v\nwant %s", c.in, got, err, c.want)
		}
	}
	if got, err := parseIntList(" 1-3, 8 ,2", 1); err != nil || !slices.Equal(got, []int{1, 2, 3, 8}) {
		t.Errorf("1-3,8,2: %v, %v", got, err)
	}
}
