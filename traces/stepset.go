package traces

import "sort"

// stepSet is a set of integers (the steps of a run's worker, the versions
// of a run's shard) kept as disjoint closed intervals that do not touch:
// consecutive values are one interval, so a worker's steps in increasing
// order with no gaps are one interval whatever their number.
//
// The intervals are in two parts. The tail is a sorted slice of the
// intervals that hold the largest values, to which a value above every
// interval is appended (or joined) in O(1): steps in increasing order, with
// gaps or not, stay there at 16 bytes a gap. The others, every one before
// the tail's first, are the nodes of an AVL tree ordered by their starts,
// held in one slice and linked by index (no pointers for the collector to
// scan; 32 bytes a node). A value that falls inside the tail moves the
// tail's intervals before it to the tree (each moves once), so add and
// contains cost O(log n) for n intervals, amortized, whatever the order of
// the values. It was one sorted slice, and a value inserted before others
// copied the tail: 200,000 steps in decreasing order, every 10th, took
// 15 s, quadratic.
type stepSet struct {
	tail  [][2]int64 // sorted; empty only when the set is
	nodes []ivNode   // node i (1-based) is nodes[i-1]; 0 is no node
	root  int32
	free  int32 // removed nodes, linked through left
}

// ivNode is an interval [lo, hi] of a stepSet's tree and its links.
type ivNode struct {
	lo, hi      int64
	left, right int32
	height      int32 // of the subtree; a leaf is 1
}

func (s *stepSet) at(i int32) *ivNode { return &s.nodes[i-1] }

func (s *stepSet) height(i int32) int32 {
	if i == 0 {
		return 0
	}
	return s.nodes[i-1].height
}

// contains reports whether v is in the set.
func (s *stepSet) contains(v int64) bool {
	if len(s.tail) > 0 && v >= s.tail[0][0] {
		i := sort.Search(len(s.tail), func(i int) bool { return s.tail[i][0] > v })
		return v <= s.tail[i-1][1]
	}
	for t := s.root; t != 0; {
		n := s.at(t)
		if v < n.lo {
			t = n.left
			continue
		}
		if v <= n.hi {
			return true
		}
		t = n.right // the intervals are disjoint: v lies after n's
	}
	return false
}

// add inserts v and reports whether it was new.
func (s *stepSet) add(v int64) bool {
	n := len(s.tail)
	if n == 0 {
		s.tail = append(s.tail, [2]int64{v, v})
		return true
	}
	// v > last[1] first: last[1]+1 overflows at the largest int64 (a
	// duplicate of step 9223372036854775807 went unseen)
	if last := &s.tail[n-1]; v > last[1] {
		if v-1 == last[1] {
			last[1] = v
		} else {
			s.tail = append(s.tail, [2]int64{v, v})
		}
		return true
	}
	if v >= s.tail[0][0] {
		// i: the first interval of the tail that starts after v
		i := sort.Search(n, func(i int) bool { return s.tail[i][0] > v })
		if v <= s.tail[i-1][1] {
			return false
		}
		// v falls in a gap of the tail: the intervals before it go to
		// the tree (i < n: v is below the last interval's end)
		for _, iv := range s.tail[:i] {
			s.root = s.insert(s.root, s.newNode(iv[0], iv[1]))
		}
		s.tail = s.tail[i:]
	}
	// v is before the tail. p: the tree's interval that starts last at or
	// before v; q: its first that starts after v (0: the tail's first
	// is next)
	var p, q int32
	for t := s.root; t != 0; {
		if n := s.at(t); v < n.lo {
			q, t = t, n.left
		} else {
			p, t = t, n.right
		}
	}
	if p != 0 && v <= s.at(p).hi {
		return false
	}
	next := &s.tail[0][0]
	if q != 0 {
		next = &s.at(q).lo
	}
	joinPrev := p != 0 && v-1 == s.at(p).hi // v > p.hi here
	joinNext := *next-1 == v                // the next start is above v
	switch {
	case joinPrev && joinNext && q == 0:
		// v fills the gap between the tree and the tail: the tail's
		// first takes p's values, p goes
		*next = s.at(p).lo
		s.root = s.remove(s.root, s.at(p).lo)
	case joinPrev && joinNext:
		// v fills the gap between two of the tree's: p takes q's
		// values, q goes
		s.at(p).hi = s.at(q).hi
		s.root = s.remove(s.root, s.at(q).lo)
	case joinPrev:
		s.at(p).hi = v
	case joinNext:
		*next = v // still after p's: the order holds
	default:
		s.root = s.insert(s.root, s.newNode(v, v))
	}
	return true
}

// intervals returns the set's intervals in increasing order (for tests).
func (s *stepSet) intervals() [][2]int64 {
	var out [][2]int64
	var walk func(int32)
	walk = func(t int32) {
		if t == 0 {
			return
		}
		n := s.at(t)
		walk(n.left)
		out = append(out, [2]int64{n.lo, n.hi})
		walk(n.right)
	}
	walk(s.root)
	return append(out, s.tail...)
}

// newNode returns a node [lo, hi] with no links, reusing a removed one.
func (s *stepSet) newNode(lo, hi int64) int32 {
	if i := s.free; i != 0 {
		s.free = s.at(i).left
		*s.at(i) = ivNode{lo: lo, hi: hi, height: 1}
		return i
	}
	s.nodes = append(s.nodes, ivNode{lo: lo, hi: hi, height: 1})
	return int32(len(s.nodes))
}

// insert links the node x (no links, its start in no other node) into the
// subtree t and returns the subtree's root.
func (s *stepSet) insert(t, x int32) int32 {
	if t == 0 {
		return x
	}
	if s.at(x).lo < s.at(t).lo {
		l := s.insert(s.at(t).left, x)
		s.at(t).left = l
	} else {
		r := s.insert(s.at(t).right, x)
		s.at(t).right = r
	}
	return s.balance(t)
}

// remove unlinks the node that starts at lo from the subtree t (it is
// there), frees it and returns the subtree's root.
func (s *stepSet) remove(t int32, lo int64) int32 {
	n := s.at(t)
	switch {
	case lo < n.lo:
		n.left = s.remove(n.left, lo)
	case lo > n.lo:
		n.right = s.remove(n.right, lo)
	default:
		l, r := n.left, n.right
		n.left, s.free = s.free, t
		if l == 0 {
			return r
		}
		if r == 0 {
			return l
		}
		// the next interval takes t's place
		r, m := s.removeMin(r)
		s.at(m).left, s.at(m).right = l, r
		return s.balance(m)
	}
	return s.balance(t)
}

// removeMin unlinks the first node of the subtree t (not empty) and
// returns the subtree's root and the node.
func (s *stepSet) removeMin(t int32) (root, min int32) {
	n := s.at(t)
	if n.left == 0 {
		return n.right, t
	}
	n.left, min = s.removeMin(n.left)
	return s.balance(t), min
}

// balance restores the AVL condition at t, whose subtrees are balanced
// and differ in height by at most 2, and returns the subtree's root.
func (s *stepSet) balance(t int32) int32 {
	n := s.at(t)
	switch d := s.height(n.left) - s.height(n.right); {
	case d > 1:
		if l := s.at(n.left); s.height(l.left) < s.height(l.right) {
			n.left = s.rotateLeft(n.left)
		}
		return s.rotateRight(t)
	case d < -1:
		if r := s.at(n.right); s.height(r.right) < s.height(r.left) {
			n.right = s.rotateRight(n.right)
		}
		return s.rotateLeft(t)
	}
	s.fix(t)
	return t
}

// fix sets t's height from its subtrees'.
func (s *stepSet) fix(t int32) {
	n := s.at(t)
	n.height = 1 + max(s.height(n.left), s.height(n.right))
}

func (s *stepSet) rotateRight(t int32) int32 {
	n := s.at(t)
	l := n.left
	n.left = s.at(l).right
	s.at(l).right = t
	s.fix(t)
	s.fix(l)
	return l
}

func (s *stepSet) rotateLeft(t int32) int32 {
	n := s.at(t)
	r := n.right
	n.right = s.at(r).left
	s.at(r).left = t
	s.fix(t)
	s.fix(r)
	return r
}
