// Copyright 2020 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in LICENSE-go in this folder (a copy of Go's
// LICENSE).

package traces

// eiselLemire64 and its table of powers of ten are Go's own
// (internal/strconv/atofeisel.go and pow10tab.go, Go 1.26), the
// Eisel-Lemire algorithm that strconv.ParseFloat runs on a mantissa of at
// most 19 digits: parseFloat runs it on the digits it has already read, and
// does not read them a second time as strconv would. Where it gives a
// value, that value is the correctly rounded float64 of man * 10^exp10,
// which is what strconv returns; where it cannot tell (ok false: a
// half-way case, or exp10 outside the table), parseFloat calls strconv.
// The table holds 10^eiselMinExp10 .. 10^0 only: parseFloat's exponent is
// minus the digits after the point. TestParseFloatEiselLemire and
// FuzzParseFloatStrconv compare parseFloat with strconv.ParseFloat bit for
// bit.

import (
	"math"
	"math/bits"
)

const eiselMinExp10 = -25

// eiselPow10 holds the 128-bit mantissas (high, low) of 10^eiselMinExp10
// .. 10^0, scaled so that the high bit is set (pow10Tab's rows).
var eiselPow10 = [...][2]uint64{
	{0xf79687aed3eec551, 0x3a83ddbd83f52204}, // 1e-25 * 2**211
	{0x9abe14cd44753b52, 0xc4926a9672793542}, // 1e-24 * 2**207
	{0xc16d9a0095928a27, 0x75b7053c0f178293}, // 1e-23 * 2**204
	{0xf1c90080baf72cb1, 0x5324c68b12dd6338}, // 1e-22 * 2**201
	{0x971da05074da7bee, 0xd3f6fc16ebca5e03}, // 1e-21 * 2**197
	{0xbce5086492111aea, 0x88f4bb1ca6bcf584}, // 1e-20 * 2**194
	{0xec1e4a7db69561a5, 0x2b31e9e3d06c32e5}, // 1e-19 * 2**191
	{0x9392ee8e921d5d07, 0x3aff322e62439fcf}, // 1e-18 * 2**187
	{0xb877aa3236a4b449, 0x09befeb9fad487c2}, // 1e-17 * 2**184
	{0xe69594bec44de15b, 0x4c2ebe687989a9b3}, // 1e-16 * 2**181
	{0x901d7cf73ab0acd9, 0x0f9d37014bf60a10}, // 1e-15 * 2**177
	{0xb424dc35095cd80f, 0x538484c19ef38c94}, // 1e-14 * 2**174
	{0xe12e13424bb40e13, 0x2865a5f206b06fb9}, // 1e-13 * 2**171
	{0x8cbccc096f5088cb, 0xf93f87b7442e45d3}, // 1e-12 * 2**167
	{0xafebff0bcb24aafe, 0xf78f69a51539d748}, // 1e-11 * 2**164
	{0xdbe6fecebdedd5be, 0xb573440e5a884d1b}, // 1e-10 * 2**161
	{0x89705f4136b4a597, 0x31680a88f8953030}, // 1e-9 * 2**157
	{0xabcc77118461cefc, 0xfdc20d2b36ba7c3d}, // 1e-8 * 2**154
	{0xd6bf94d5e57a42bc, 0x3d32907604691b4c}, // 1e-7 * 2**151
	{0x8637bd05af6c69b5, 0xa63f9a49c2c1b10f}, // 1e-6 * 2**147
	{0xa7c5ac471b478423, 0x0fcf80dc33721d53}, // 1e-5 * 2**144
	{0xd1b71758e219652b, 0xd3c36113404ea4a8}, // 1e-4 * 2**141
	{0x83126e978d4fdf3b, 0x645a1cac083126e9}, // 1e-3 * 2**137
	{0xa3d70a3d70a3d70a, 0x3d70a3d70a3d70a3}, // 1e-2 * 2**134
	{0xcccccccccccccccc, 0xcccccccccccccccc}, // 1e-1 * 2**131
	{0x8000000000000000, 0x0000000000000000}, // 1e0 * 2**127
}

// eiselLemire64 is internal/strconv's, for exp10 in [eiselMinExp10, 0].
func eiselLemire64(man uint64, exp10 int, neg bool) (f float64, ok bool) {
	// Exp10 Range.
	if man == 0 {
		if neg {
			f = math.Float64frombits(0x8000000000000000) // Negative zero.
		}
		return f, true
	}
	if exp10 < eiselMinExp10 || exp10 > 0 {
		return 0, false
	}
	pow := eiselPow10[exp10-eiselMinExp10]
	exp2 := 1 + (exp10*108853)>>15 // strconv's pow10: 1 + floor(exp10 log2(10))
	const float64Bias = -1023

	// Normalization.
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	retExp2 := uint64(exp2+63-float64Bias) - uint64(clz)

	// Multiplication.
	xHi, xLo := bits.Mul64(man, pow[0])

	// Wider Approximation.
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}

	// Shifting to 54 Bits.
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb

	// Half-way Ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}

	// From 54 to 53 Bits.
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2 += 1
	}
	// retExp2 is a uint64. Zero or underflow means that we're in subnormal
	// float64 space. 0x7FF or above means that we're in Inf/NaN float64 space.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	retBits := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		retBits |= 0x8000000000000000
	}
	return math.Float64frombits(retBits), true
}
