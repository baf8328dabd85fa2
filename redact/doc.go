// Package redact gives every kept sample a natural-language intent that states the
// user's goal and gives away nothing of its ground truth g = ⟨h, e, m, P⟩ (paper
// §III-C(3)). It owns LeakCheck (a tokenization-aware check of any text against g,
// with the shipped list of ordinary English words), the judgement of whether a
// human comment states the goal, masking the code with g into ỹ, the style-guided
// generation through the shared llm client with one stricter retry, the offline
// generator, and the redact stage that stores every attempt.
package redact
