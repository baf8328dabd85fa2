//go:build !race

package jsbox

const raceBuild = false
