package ctxbudget

// Fit picks, in order, the items (by their sizes in bytes) that fit
// together within budget: whole items only, never cut. An item too large
// for what is left goes to left, and the smaller ones after it may still
// fit: a tier of context files loses its largest file, not all that
// follows it. A budget of 0 or less fits nothing. It returns the indices
// of sizes kept and left out.
func Fit(sizes []int, budget int) (kept, left []int) {
	for i, n := range sizes {
		if n <= budget {
			budget -= n
			kept = append(kept, i)
			continue
		}
		left = append(left, i)
	}
	return kept, left
}
