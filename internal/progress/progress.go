// Package progress draws a progress bar on a terminal and nothing elsewhere,
// so that long work (bootstrap, simulations of many jobs) shows it is alive
// without spoiling logs, pipes or CI output.
//
// A nil *Bar is valid and does nothing, so callers can pass one around
// without checks:
//
//	bar := progress.New(os.Stderr, "bootstrap", 2000, nil)
//	for i := range 2000 {
//		...
//		bar.Add(1)
//	}
//	bar.Done()
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Options tune a Bar. A nil *Options means the defaults.
type Options struct {
	// Force draws the bar even when the writer is not a terminal (tests,
	// or a caller that knows better). Zero: draw only on a terminal.
	Force bool
	// Width is the bar's width in cells. Zero means 30.
	Width int
	// Every is the least time between redraws. Zero means 100 ms; negative
	// means redraw on every call (tests).
	Every time.Duration
}

// Bar is a progress bar for a known amount of work.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	total int64
	done  int64
	width int
	every time.Duration
	last  time.Time
	start time.Time
	now   func() time.Time
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}

// New returns a bar for total units of work, labelled label, drawn on w; it
// returns nil (a bar that does nothing) when w is not a terminal and
// opts.Force is not set, or when total <= 0. It never changes opts.
func New(w io.Writer, label string, total int64, opts *Options) *Bar {
	var o Options
	if opts != nil {
		o = *opts
	}
	if total <= 0 || w == nil || (!o.Force && !IsTerminal(w)) {
		return nil
	}
	if o.Width <= 0 {
		o.Width = 30
	}
	if o.Every == 0 {
		o.Every = 100 * time.Millisecond
	}
	b := &Bar{w: w, label: label, total: total, width: o.Width, every: o.Every, now: time.Now}
	b.start = b.now()
	return b
}

// Add records n more units done and redraws when due. Safe for concurrent
// use.
func (b *Bar) Add(n int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = min(b.done+n, b.total)
	t := b.now()
	if b.every < 0 || t.Sub(b.last) >= b.every || b.done == b.total {
		b.last = t
		b.draw(t)
	}
}

// Grow adds n units to the work to do, found on the way (work the bar's
// total did not know of: reruns): the bar no longer sits full while it is
// done. Safe for concurrent use.
func (b *Bar) Grow(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += n
}

// Done draws the full bar and ends its line.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = b.total
	b.draw(b.now())
	fmt.Fprint(b.w, "\n")
}

// draw writes the bar over the current line:
// "\rlabel [=========>          ]  45% 450/1000 3s".
func (b *Bar) draw(t time.Time) {
	frac := float64(b.done) / float64(b.total)
	full := int(frac * float64(b.width))
	bar := strings.Repeat("=", full)
	if full < b.width {
		bar += ">" + strings.Repeat(" ", b.width-full-1)
	}
	el := t.Sub(b.start).Round(time.Second)
	fmt.Fprintf(b.w, "\r%s [%s] %3.0f%% %d/%d %v", b.label, bar, 100*frac, b.done, b.total, el)
}
