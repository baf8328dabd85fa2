package blame

import "bytes"

// Version is a file at one commit of its history.
type Version struct {
	Time    int64 // the commit's author date, Unix seconds
	Content []byte
}

// FromHistory dates the lines of versions[0] from the file's history, newest
// version first (see Walk). complete says whether the last version is the one
// that created the file.
func FromHistory(versions []Version, complete bool) *Lines {
	if len(versions) == 0 {
		return Undated(ReasonHistoryCut)
	}
	w := NewWalk(versions[0])
	for _, v := range versions[1:] {
		if w.Done() {
			break
		}
		w.Older(v)
	}
	return w.End(complete)
}

// Walk dates the lines of a file from its history the way blame does, one
// version at a time from the newest back: each version is compared line by line
// with the one before it (a Myers diff), and a line takes the date of the version
// that added it.
type Walk struct {
	ids   map[string]int
	cur   []int // the lines of the version compared last, interned
	time  int64 // its date
	times []int64
	pos   []int // each line's index in cur; -1 once dated
	left  int
}

// NewWalk starts from the file as it is (the newest version).
func NewWalk(newest Version) *Walk {
	w := &Walk{ids: map[string]int{}, time: newest.Time}
	w.cur = w.intern(newest.Content)
	w.times = make([]int64, len(w.cur))
	w.pos = make([]int, len(w.cur))
	for i := range w.pos {
		w.pos[i] = i
	}
	w.left = len(w.cur)
	return w
}

func (w *Walk) intern(content []byte) []int {
	ls := splitLines(content)
	out := make([]int, len(ls))
	for i, l := range ls {
		id, ok := w.ids[l]
		if !ok {
			id = len(w.ids)
			w.ids[l] = id
		}
		out[i] = id
	}
	return out
}

// Done reports whether every line is dated, so no older version is needed.
func (w *Walk) Done() bool { return w.left == 0 }

// Older compares the file with its previous version: the lines that version does
// not hold were added by the one compared last and take its date.
func (w *Walk) Older(v Version) {
	older := w.intern(v.Content)
	match := Match(older, w.cur)
	for i, p := range w.pos {
		if p < 0 {
			continue
		}
		if m := match[p]; m >= 0 {
			w.pos[i] = m
			continue
		}
		w.times[i], w.pos[i] = w.time, -1
		w.left--
	}
	w.cur, w.time = older, v.Time
}

// End dates what is left: the lines the oldest version compared still holds take
// its date when it created the file (complete), and are undated
// (ReasonHistoryCut) when older versions were not read.
func (w *Walk) End(complete bool) *Lines {
	if complete {
		for i, p := range w.pos {
			if p >= 0 {
				w.times[i] = w.time
			}
		}
	}
	return FromTimes(MethodHistory, w.times, ReasonHistoryCut)
}

// splitLines splits content into lines as git counts them: a final newline ends
// the last line, it does not start another.
func splitLines(content []byte) []string {
	if len(content) == 0 {
		return nil
	}
	s := string(bytes.TrimSuffix(content, []byte("\n")))
	var out []string
	for {
		i := bytes.IndexByte([]byte(s), '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

// Match pairs the lines of b with equal lines of a along a longest common
// subsequence (Myers' diff in linear space): match[j] is the index in a of b[j],
// or -1 for a line b adds.
func Match(a, b []int) []int {
	match := make([]int, len(b))
	for j := range match {
		match[j] = -1
	}
	d := &differ{a: a, b: b, match: match}
	n := len(a) + len(b) + 5
	d.vf, d.vb = make([]int, n), make([]int, n)
	d.run(0, len(a), 0, len(b))
	return match
}

type differ struct {
	a, b   []int
	match  []int
	vf, vb []int
}

// run matches a[a0:a1] with b[b0:b1].
func (d *differ) run(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.match[b0] = a0
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
		d.match[b1] = a1
	}
	if a0 == a1 || b0 == b1 {
		return
	}
	// Both sides are left: at least two edits, so the middle snake splits the
	// problem into two smaller ones.
	x, y, u, v := d.middleSnake(a0, a1, b0, b1)
	d.run(a0, x, b0, y)
	for i := x; i < u; i++ {
		d.match[y+i-x] = i
	}
	d.run(u, a1, v, b1)
}

// middleSnake finds the middle snake of an optimal path through a[a0:a1] and
// b[b0:b1] (Myers 1986, section 4b): it runs from (x, y) to (u, v).
func (d *differ) middleSnake(a0, a1, b0, b1 int) (x, y, u, v int) {
	n, m := a1-a0, b1-b0
	limit := (n + m + 1) / 2
	delta := n - m
	odd := delta&1 != 0
	off := limit + 1
	vf, vb := d.vf[:2*limit+3], d.vb[:2*limit+3]
	vf[off+1], vb[off+1] = 0, 0
	for e := 0; e <= limit; e++ {
		// forward paths: vf[k] is the furthest x on diagonal k = x - y
		for k := -e; k <= e; k += 2 {
			var x int
			if k == -e || (k != e && vf[off+k-1] < vf[off+k+1]) {
				x = vf[off+k+1]
			} else {
				x = vf[off+k-1] + 1
			}
			y := x - k
			sx, sy := x, y
			for x < n && y < m && d.a[a0+x] == d.b[b0+y] {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			if kb := delta - k; odd && kb >= -(e-1) && kb <= e-1 && x+vb[off+kb] >= n {
				return a0 + sx, b0 + sy, a0 + x, b0 + y
			}
		}
		// backward paths, from the ends: vb[k] is how far back along diagonal k
		for k := -e; k <= e; k += 2 {
			var x int
			if k == -e || (k != e && vb[off+k-1] < vb[off+k+1]) {
				x = vb[off+k+1]
			} else {
				x = vb[off+k-1] + 1
			}
			y := x - k
			sx, sy := x, y
			for x < n && y < m && d.a[a1-1-x] == d.b[b1-1-y] {
				x, y = x+1, y+1
			}
			vb[off+k] = x
			if kf := delta - k; !odd && kf >= -e && kf <= e && x+vf[off+kf] >= n {
				return a1 - x, b1 - y, a1 - sx, b1 - sy
			}
		}
	}
	// unreachable: the paths meet by limit edits
	return a0, b0, a0, b0
}
