package blame

import "bytes"

// Version is a file at one commit of its history.
type Version struct {
	Time    int64 // the commit's author date, Unix seconds
	Content []byte
}

// FromHistory dates the lines of versions[0] from the file's history, newest
// version first, the way blame does: each version is compared line by line with
// the one before it (a Myers diff), and a line takes the date of the version that
// added it. complete says whether the last version is the one that created the
// file; when it is not, the lines it still holds are undated (ReasonHistoryCut).
func FromHistory(versions []Version, complete bool) *Lines {
	if len(versions) == 0 {
		return Undated(ReasonHistoryCut)
	}
	ids := map[string]int{}
	intern := func(content []byte) []int {
		ls := splitLines(content)
		out := make([]int, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	cur := intern(versions[0].Content)
	times := make([]int64, len(cur))
	pos := make([]int, len(cur)) // each line's index in the version being compared; -1 once dated
	for i := range pos {
		pos[i] = i
	}
	left := len(cur)
	for k := 0; k < len(versions) && left > 0; k++ {
		if k == len(versions)-1 {
			if complete {
				for i, p := range pos {
					if p >= 0 {
						times[i] = versions[k].Time
					}
				}
			}
			break
		}
		older := intern(versions[k+1].Content)
		match := Match(older, cur)
		for i, p := range pos {
			if p < 0 {
				continue
			}
			if m := match[p]; m >= 0 {
				pos[i] = m
				continue
			}
			times[i], pos[i] = versions[k].Time, -1
			left--
		}
		cur = older
	}
	return FromTimes(MethodHistory, times, ReasonHistoryCut)
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
