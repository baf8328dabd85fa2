//go:build race

package jsbox

// raceBuild: the race detector slows the engine several times over, and its
// allocator fails another way than Go's when a worker runs out of memory.
const raceBuild = true
